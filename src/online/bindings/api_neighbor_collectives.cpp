// Neighbourhood collectives (MPI-3.1 sections 7.6 and 7.7), blocking and non-blocking, over point-to-point messages
// to and from the neighbours of the communicator's topology, in the order of topology_sources /
// topology_destinations. Their messages carry negative tags, which no user receive (MPI_ANY_TAG included) can match:
// one tag for the blocking calls, and for each non-blocking call the communicator's next non-blocking collective
// tag, so that calls in flight together never match each other's messages.
#include "mpi/collectives/Collectives.hpp"
#include "online/bindings/Arguments.hpp"

#include <cstddef>
#include <memory>

using namespace mpisim::online;

namespace {
constexpr int kNeighborTag = -20;

// The send that goes k-th. Messages of one tag from one source are matched in the order they were sent, and the
// receives are posted in the order of the sources, so each neighbour must send in the order of the blocks its
// messages become at the receiver. On a Cartesian grid, what is sent towards direction j (the -1 or +1 neighbour of a
// dimension) arrives as block j ^ 1 (from the receiver's +1 or -1 neighbour): the sends go in that order, which keeps
// the blocks apart where a rank is both neighbours of a periodic dimension of size 1 or 2. Other topologies list
// their edges in the same order on both sides.
size_t send_in_position(const Topology& topology, size_t k)
{
  return topology.kind == Topology::Kind::Cart ? k ^ 1 : k;
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
  MPISIM_TRY(resolve_intracomm(runtime, comm, call, out.comm));
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

// Posts every receive, then every send (neighbours at MPI_PROC_NULL are skipped), all with `tag`.
std::vector<mpisim::mpi::RequestPtr> post(mpisim::mpi::Rank& rank, const Exchange& x, int tag,
                                          const std::vector<Block>& sends, const std::vector<Block>& receives)
{
  std::vector<mpisim::mpi::RequestPtr> requests;
  for (size_t i = 0; i < x.sources.size(); ++i)
    if (x.sources[i] != MPI_PROC_NULL)
      requests.push_back(rank.irecv(*x.comm, x.sources[i], tag, receives[i].buffer,
                                    static_cast<size_t>(receives[i].count),
                                    receives[i].type ? receives[i].type : x.recv_type));
  for (size_t k = 0; k < x.destinations.size(); ++k) {
    const size_t j = send_in_position(*x.topology, k);
    if (x.destinations[j] != MPI_PROC_NULL)
      requests.push_back(rank.isend(*x.comm, x.destinations[j], tag, sends[j].buffer,
                                    static_cast<size_t>(sends[j].count), sends[j].type ? sends[j].type : x.send_type));
  }
  return requests;
}

// What one call exchanges: the neighbours and the blocks, checked. One per MPI function, shared by its blocking
// and non-blocking forms.
struct Plan {
  Exchange x;
  std::vector<Block> sends, receives;
};

// The blocking calls: post, then wait for all. `make` checks the arguments and fills the plan; `call` is the PMPI_
// function calling this helper (its MPI name follows "P").
template <typename Make> int exchange(Make&& make, const char* call = __builtin_FUNCTION())
{
  ApiScope scope(call);
  Plan plan;
  MPISIM_TRY(make(scope.runtime(), call + 1, plan));
  scope.rank().waitall(post(scope.rank(), plan.x, kNeighborTag, plan.sends, plan.receives));
  return MPI_SUCCESS;
}

// The non-blocking calls: post now, in the caller's order of calls; a helper acting for the rank waits for the
// messages and completes the call's request, which MPI_Wait/Test complete.
template <typename Make>
int start_exchange(MPI_Comm comm, MPI_Request* request, Make&& make, const char* call = __builtin_FUNCTION())
{
  ApiScope scope(call);
  Runtime& runtime = scope.runtime();
  Plan plan;
  MPISIM_TRY(make(runtime, call + 1, plan));
  mpisim::mpi::Rank& rank = scope.rank();
  return failure_aware(runtime, comm, call + 1, [&] {
    const int tag = mpisim::mpi::nonblocking_collective_tag(rank.next_nonblocking_collective(*plan.x.comm));
    auto messages = post(rank, plan.x, tag, plan.sends, plan.receives);
    auto done = std::make_shared<mpisim::mpi::Request>(mpisim::mpi::RequestKind::Collective, rank.world_rank(),
                                                       *plan.x.comm, mpisim::mpi::kAnySource, tag, 0);
    done->operation = call + 1;
    rank.spawn_helper(call + 1, [&rank, done, messages = std::move(messages)] {
      try {
        rank.waitall(messages);
      } catch (const mpisim::mpi::ProcessFailure& failure) { // the request ends with it; its wait raises it
        rank.world().fail_request(*done, failure.kind(), failure.failed_rank());
        return;
      }
      done->complete();
    });
    RequestEntry entry{.owner = ErrorOwner::communicator(comm)};
    entry.request = std::move(done);
    *request = runtime.requests().add(std::move(entry));
    return MPI_SUCCESS;
  });
}

std::byte* at(const void* buffer, std::ptrdiff_t elements, const mpisim::mpi::DatatypePtr& type)
{
  return static_cast<std::byte*>(const_cast<void*>(buffer)) + elements * type->extent();
}

// The cuts of a buffer into one block per neighbour, each checking its counts: n blocks of `count` elements,
// `stride` elements apart (0: the same block for every neighbour, as allgather sends); block i at displacement
// displs[i] with counts[i] elements; blocks of their own type at byte displacements (alltoallw).
int equal_blocks(Runtime& runtime, MPI_Comm comm, const void* buffer, size_t n, int count, std::ptrdiff_t stride,
                 const mpisim::mpi::DatatypePtr& type, const char* call, std::vector<Block>& out)
{
  MPISIM_TRY(check_count(runtime, comm, count, call));
  for (size_t i = 0; i < n; ++i)
    out.push_back({at(buffer, static_cast<std::ptrdiff_t>(i) * stride, type), count, nullptr});
  return MPI_SUCCESS;
}

int displaced_blocks(Runtime& runtime, MPI_Comm comm, const void* buffer, size_t n, const int counts[],
                     const int displs[], const mpisim::mpi::DatatypePtr& type, const char* call,
                     std::vector<Block>& out)
{
  for (size_t i = 0; i < n; ++i) {
    MPISIM_TRY(check_count(runtime, comm, counts[i], call));
    out.push_back({at(buffer, displs[i], type), counts[i], nullptr});
  }
  return MPI_SUCCESS;
}

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

int plan_allgather(Runtime& runtime, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char* call, Plan& plan)
{
  Exchange& x = plan.x;
  MPISIM_TRY(prepare(runtime, comm, sendtype, recvtype, call, x));
  MPISIM_TRY(equal_blocks(runtime, comm, sendbuf, x.destinations.size(), sendcount, 0, x.send_type, call, plan.sends));
  return equal_blocks(runtime, comm, recvbuf, x.sources.size(), recvcount, recvcount, x.recv_type, call, plan.receives);
}

int plan_allgatherv(Runtime& runtime, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, const char* call,
                    Plan& plan)
{
  Exchange& x = plan.x;
  MPISIM_TRY(prepare(runtime, comm, sendtype, recvtype, call, x));
  MPISIM_TRY(equal_blocks(runtime, comm, sendbuf, x.destinations.size(), sendcount, 0, x.send_type, call, plan.sends));
  return displaced_blocks(runtime, comm, recvbuf, x.sources.size(), recvcounts, displs, x.recv_type, call,
                          plan.receives);
}

int plan_alltoall(Runtime& runtime, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char* call, Plan& plan)
{
  Exchange& x = plan.x;
  MPISIM_TRY(prepare(runtime, comm, sendtype, recvtype, call, x));
  MPISIM_TRY(
      equal_blocks(runtime, comm, sendbuf, x.destinations.size(), sendcount, sendcount, x.send_type, call, plan.sends));
  return equal_blocks(runtime, comm, recvbuf, x.sources.size(), recvcount, recvcount, x.recv_type, call, plan.receives);
}

int plan_alltoallv(Runtime& runtime, const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype, MPI_Comm comm, const char* call, Plan& plan)
{
  Exchange& x = plan.x;
  MPISIM_TRY(prepare(runtime, comm, sendtype, recvtype, call, x));
  MPISIM_TRY(displaced_blocks(runtime, comm, sendbuf, x.destinations.size(), sendcounts, sdispls, x.send_type, call,
                              plan.sends));
  return displaced_blocks(runtime, comm, recvbuf, x.sources.size(), recvcounts, rdispls, x.recv_type, call,
                          plan.receives);
}

int plan_alltoallw(Runtime& runtime, const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm, const char* call, Plan& plan)
{
  Exchange& x = plan.x;
  MPISIM_TRY(prepare(runtime, comm, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, call, x));
  MPISIM_TRY(
      typed_blocks(runtime, comm, sendbuf, x.destinations.size(), sendcounts, sdispls, sendtypes, call, plan.sends));
  return typed_blocks(runtime, comm, recvbuf, x.sources.size(), recvcounts, rdispls, recvtypes, call, plan.receives);
}
} // namespace

extern "C" int PMPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  return exchange([&](Runtime& runtime, const char* call, Plan& p) {
    return plan_allgather(runtime, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, call, p);
  });
}

extern "C" int PMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                        MPI_Comm comm)
{
  return exchange([&](Runtime& runtime, const char* call, Plan& p) {
    return plan_allgatherv(runtime, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, call, p);
  });
}

extern "C" int PMPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  return exchange([&](Runtime& runtime, const char* call, Plan& p) {
    return plan_alltoall(runtime, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, call, p);
  });
}

extern "C" int PMPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  return exchange([&](Runtime& runtime, const char* call, Plan& p) {
    return plan_alltoallv(runtime, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                          call, p);
  });
}

extern "C" int PMPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
  return exchange([&](Runtime& runtime, const char* call, Plan& p) {
    return plan_alltoallw(runtime, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                          comm, call, p);
  });
}

extern "C" int PMPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  return start_exchange(comm, request, [&](Runtime& runtime, const char* call, Plan& p) {
    return plan_allgather(runtime, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, call, p);
  });
}

extern "C" int PMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                         MPI_Comm comm, MPI_Request* request)
{
  return start_exchange(comm, request, [&](Runtime& runtime, const char* call, Plan& p) {
    return plan_allgatherv(runtime, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, call, p);
  });
}

extern "C" int PMPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  return start_exchange(comm, request, [&](Runtime& runtime, const char* call, Plan& p) {
    return plan_alltoall(runtime, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, call, p);
  });
}

extern "C" int PMPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  return start_exchange(comm, request, [&](Runtime& runtime, const char* call, Plan& p) {
    return plan_alltoallv(runtime, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                          call, p);
  });
}

extern "C" int PMPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                        MPI_Request* request)
{
  return start_exchange(comm, request, [&](Runtime& runtime, const char* call, Plan& p) {
    return plan_alltoallw(runtime, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                          comm, call, p);
  });
}

MPISIM_ALIAS(Neighbor_allgather)
MPISIM_ALIAS(Neighbor_allgatherv)
MPISIM_ALIAS(Neighbor_alltoall)
MPISIM_ALIAS(Neighbor_alltoallv)
MPISIM_ALIAS(Neighbor_alltoallw)
MPISIM_ALIAS(Ineighbor_allgather)
MPISIM_ALIAS(Ineighbor_allgatherv)
MPISIM_ALIAS(Ineighbor_alltoall)
MPISIM_ALIAS(Ineighbor_alltoallv)
MPISIM_ALIAS(Ineighbor_alltoallw)
