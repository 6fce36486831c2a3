// Neighbourhood collectives (MPI-3.1 section 7.6) over point-to-point messages to and from the neighbours of the
// communicator's topology, in the order of topology_sources / topology_destinations. Their messages carry negative
// tags, which no user receive (MPI_ANY_TAG included) can match.
#include "online/bindings/Arguments.hpp"

#include <cstddef>
#include <memory>

using namespace mpisim::online;

namespace {
constexpr int kNeighborTag = -20;

// The tag of the message sent to the j-th destination and the one the i-th source sends. On a Cartesian grid, a rank
// may be both neighbours of a periodic dimension of size 1 or 2: the direction in the tag keeps the blocks apart (what
// is sent to the +1 neighbour arrives from its -1 neighbour). Other topologies use one tag (messages keep their order).
int send_tag(const Topology& topology, size_t j)
{
  return topology.kind == Topology::Kind::Cart && j < 60 ? kNeighborTag - static_cast<int>(j) : kNeighborTag;
}

int receive_tag(const Topology& topology, size_t i)
{
  return topology.kind == Topology::Kind::Cart && i < 60 ? kNeighborTag - static_cast<int>(i ^ 1) : kNeighborTag;
}

struct Block {
  std::byte* buffer;
  int count;
  mpisim::mpi::DatatypePtr type; // null: the call's send or receive type
};

struct Exchange {
  const mpisim::mpi::Communicator* comm = nullptr;
  std::shared_ptr<const Topology> topology;
  std::vector<int> sources, destinations;
  mpisim::mpi::DatatypePtr send_type, recv_type;
};

// The send and receive types are resolved here unless they vary by block (MPI_DATATYPE_NULL: alltoallw).
int prepare(Runtime& runtime, MPI_Comm comm, MPI_Datatype sendtype, MPI_Datatype recvtype, const char* call,
            Exchange& out)
{
  MPISIM_TRY(resolve_comm(runtime, comm, call, out.comm));
  if (sendtype != MPI_DATATYPE_NULL || recvtype != MPI_DATATYPE_NULL) {
    MPISIM_TRY(resolve_type(runtime, comm, sendtype, call, out.send_type));
    MPISIM_TRY(resolve_type(runtime, comm, recvtype, call, out.recv_type));
  }
  out.topology = runtime.comm_properties().topology(runtime.current_rank(), comm);
  if (out.topology == nullptr)
    return raise_error(runtime, comm, MPI_ERR_TOPOLOGY, call,
                       "communicator " + std::to_string(comm) + " has no topology");
  const int me = out.comm->local_rank(runtime.current_rank());
  out.sources = topology_sources(*out.topology, me);
  out.destinations = topology_destinations(*out.topology, me);
  return MPI_SUCCESS;
}

// Posts every receive and send, then waits for all (neighbours at MPI_PROC_NULL are skipped).
int exchange(ApiScope& scope, const Exchange& x, const std::vector<Block>& sends, const std::vector<Block>& receives)
{
  std::vector<mpisim::mpi::RequestPtr> requests;
  for (size_t i = 0; i < x.sources.size(); ++i)
    if (x.sources[i] != MPI_PROC_NULL)
      requests.push_back(scope.rank().irecv(*x.comm, x.sources[i], receive_tag(*x.topology, i), receives[i].buffer,
                                            static_cast<size_t>(receives[i].count),
                                            receives[i].type ? receives[i].type : x.recv_type));
  for (size_t j = 0; j < x.destinations.size(); ++j)
    if (x.destinations[j] != MPI_PROC_NULL)
      requests.push_back(scope.rank().isend(*x.comm, x.destinations[j], send_tag(*x.topology, j), sends[j].buffer,
                                            static_cast<size_t>(sends[j].count),
                                            sends[j].type ? sends[j].type : x.send_type));
  scope.rank().waitall(requests);
  return MPI_SUCCESS;
}

std::byte* at(const void* buffer, std::ptrdiff_t elements, const mpisim::mpi::DatatypePtr& type)
{
  return static_cast<std::byte*>(const_cast<void*>(buffer)) + elements * type->extent();
}

// Block i of a buffer of equal blocks, or at displacement displs[i] with counts[i] elements.
std::vector<Block> blocks(const void* buffer, size_t n, int count, const mpisim::mpi::DatatypePtr& type)
{
  std::vector<Block> result;
  for (size_t i = 0; i < n; ++i)
    result.push_back({at(buffer, static_cast<std::ptrdiff_t>(i) * count, type), count, nullptr});
  return result;
}

std::vector<Block> blocks(const void* buffer, size_t n, const int counts[], const int displs[],
                          const mpisim::mpi::DatatypePtr& type)
{
  std::vector<Block> result;
  for (size_t i = 0; i < n; ++i)
    result.push_back({at(buffer, displs[i], type), counts[i], nullptr});
  return result;
}

// Blocks of their own type at byte displacements (MPI_Neighbor_alltoallw).
int typed_blocks(Runtime& runtime, MPI_Comm comm, const void* buffer, size_t n, const int counts[],
                 const MPI_Aint displs[], const MPI_Datatype types[], const char* call, std::vector<Block>& out)
{
  for (size_t i = 0; i < n; ++i) {
    mpisim::mpi::DatatypePtr type;
    MPISIM_TRY(resolve_type(runtime, comm, types[i], call, type));
    MPISIM_TRY(check_count(runtime, comm, counts[i], call));
    out.push_back({static_cast<std::byte*>(const_cast<void*>(buffer)) + displs[i], counts[i], type});
  }
  return MPI_SUCCESS;
}

int check_counts(Runtime& runtime, MPI_Comm comm, size_t n, const int counts[], const char* call)
{
  for (size_t i = 0; i < n; ++i)
    MPISIM_TRY(check_count(runtime, comm, counts[i], call));
  return MPI_SUCCESS;
}
} // namespace

extern "C" int PMPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  Exchange x;
  MPISIM_TRY(prepare(runtime, comm, sendtype, recvtype, "MPI_Neighbor_allgather", x));
  MPISIM_TRY(check_count(runtime, comm, sendcount, "MPI_Neighbor_allgather"));
  MPISIM_TRY(check_count(runtime, comm, recvcount, "MPI_Neighbor_allgather"));
  const std::vector<Block> sends(x.destinations.size(), Block{at(sendbuf, 0, x.send_type), sendcount, nullptr});
  return exchange(scope, x, sends, blocks(recvbuf, x.sources.size(), recvcount, x.recv_type));
}

extern "C" int PMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                        MPI_Comm comm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  Exchange x;
  MPISIM_TRY(prepare(runtime, comm, sendtype, recvtype, "MPI_Neighbor_allgatherv", x));
  MPISIM_TRY(check_count(runtime, comm, sendcount, "MPI_Neighbor_allgatherv"));
  MPISIM_TRY(check_counts(runtime, comm, x.sources.size(), recvcounts, "MPI_Neighbor_allgatherv"));
  const std::vector<Block> sends(x.destinations.size(), Block{at(sendbuf, 0, x.send_type), sendcount, nullptr});
  return exchange(scope, x, sends, blocks(recvbuf, x.sources.size(), recvcounts, displs, x.recv_type));
}

extern "C" int PMPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  Exchange x;
  MPISIM_TRY(prepare(runtime, comm, sendtype, recvtype, "MPI_Neighbor_alltoall", x));
  MPISIM_TRY(check_count(runtime, comm, sendcount, "MPI_Neighbor_alltoall"));
  MPISIM_TRY(check_count(runtime, comm, recvcount, "MPI_Neighbor_alltoall"));
  return exchange(scope, x, blocks(sendbuf, x.destinations.size(), sendcount, x.send_type),
                  blocks(recvbuf, x.sources.size(), recvcount, x.recv_type));
}

extern "C" int PMPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  Exchange x;
  MPISIM_TRY(prepare(runtime, comm, sendtype, recvtype, "MPI_Neighbor_alltoallv", x));
  MPISIM_TRY(check_counts(runtime, comm, x.destinations.size(), sendcounts, "MPI_Neighbor_alltoallv"));
  MPISIM_TRY(check_counts(runtime, comm, x.sources.size(), recvcounts, "MPI_Neighbor_alltoallv"));
  return exchange(scope, x, blocks(sendbuf, x.destinations.size(), sendcounts, sdispls, x.send_type),
                  blocks(recvbuf, x.sources.size(), recvcounts, rdispls, x.recv_type));
}

extern "C" int PMPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  Exchange x;
  MPISIM_TRY(prepare(runtime, comm, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, "MPI_Neighbor_alltoallw", x));
  std::vector<Block> sends, receives;
  MPISIM_TRY(typed_blocks(runtime, comm, sendbuf, x.destinations.size(), sendcounts, sdispls, sendtypes,
                          "MPI_Neighbor_alltoallw", sends));
  MPISIM_TRY(typed_blocks(runtime, comm, recvbuf, x.sources.size(), recvcounts, rdispls, recvtypes,
                          "MPI_Neighbor_alltoallw", receives));
  return exchange(scope, x, sends, receives);
}

MPISIM_ALIAS(Neighbor_allgather)
MPISIM_ALIAS(Neighbor_allgatherv)
MPISIM_ALIAS(Neighbor_alltoall)
MPISIM_ALIAS(Neighbor_alltoallv)
MPISIM_ALIAS(Neighbor_alltoallw)
