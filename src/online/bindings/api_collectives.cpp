// Blocking collectives, through the configured collective library (--coll-selector, --coll).
#include "online/bindings/CollectiveBuilders.hpp"

using namespace mpisim::online;
using mpisim::mpi::Collective;

namespace {
// Prepares then runs: `prepare` is one of the CollectiveBuilders, given the scope's runtime.
template <typename Prepare> int run(Prepare&& prepare, const char* call = __builtin_FUNCTION())
{
  ApiScope scope(call); // named after the MPI function calling this helper
  PreparedOut prepared(PreparedOut::Place::Frame);
  MPISIM_TRY(prepare(scope.runtime(), prepared));
  return run_blocking(scope, *prepared);
}
} // namespace

extern "C" int PMPI_Barrier(MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) { return prepare_barrier(runtime, comm, "MPI_Barrier", p); });
}

extern "C" int PMPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_bcast(runtime, buffer, count, type, root, comm, "MPI_Bcast", p);
  });
}

extern "C" int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                           MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduction(runtime, Collective::Reduce, sendbuf, recvbuf, count, type, op, root, comm, "MPI_Reduce",
                             p);
  });
}

extern "C" int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduction(runtime, Collective::Allreduce, sendbuf, recvbuf, count, type, op, -1, comm,
                             "MPI_Allreduce", p);
  });
}

extern "C" int PMPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduction(runtime, Collective::Scan, sendbuf, recvbuf, count, type, op, -1, comm, "MPI_Scan", p);
  });
}

extern "C" int PMPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduction(runtime, Collective::Exscan, sendbuf, recvbuf, count, type, op, -1, comm, "MPI_Exscan", p);
  });
}

extern "C" int PMPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_gather(runtime, sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype, root,
                          comm, "MPI_Gather", p);
  });
}

extern "C" int PMPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_gather(runtime, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root, comm,
                          "MPI_Gatherv", p);
  });
}

extern "C" int PMPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_gather(runtime, sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype, -1,
                          comm, "MPI_Allgather", p);
  });
}

extern "C" int PMPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_gather(runtime, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, -1, comm,
                          "MPI_Allgatherv", p);
  });
}

extern "C" int PMPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_scatter(runtime, sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf, recvcount, recvtype, root,
                           comm, "MPI_Scatter", p);
  });
}

extern "C" int PMPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_scatter(runtime, sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           "MPI_Scatterv", p);
  });
}

extern "C" int PMPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_alltoall(runtime, sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf, recvcount, nullptr,
                            nullptr, recvtype, comm, "MPI_Alltoall", p);
  });
}

extern "C" int PMPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_alltoall(runtime, sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0, recvcounts, rdispls,
                            recvtype, comm, "MPI_Alltoallv", p);
  });
}

extern "C" int PMPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_alltoallw(runtime, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                             comm, "MPI_Alltoallw", p);
  });
}

extern "C" int PMPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type,
                                   MPI_Op op, MPI_Comm comm)
{
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduce_scatter(runtime, sendbuf, recvbuf, recvcounts, type, op, comm, "MPI_Reduce_scatter", p);
  });
}

extern "C" int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type,
                                         MPI_Op op, MPI_Comm comm)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_size", c)); // the error names the call it was raised in before
  std::vector<int> recvcounts(c->size(), recvcount);
  return run([&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduce_scatter(runtime, sendbuf, recvbuf, recvcounts.data(), type, op, comm,
                                  "MPI_Reduce_scatter_block", p);
  });
}

MPISIM_ALIAS(Barrier)
MPISIM_ALIAS(Bcast)
MPISIM_ALIAS(Reduce)
MPISIM_ALIAS(Allreduce)
MPISIM_ALIAS(Scan)
MPISIM_ALIAS(Exscan)
MPISIM_ALIAS(Gather)
MPISIM_ALIAS(Gatherv)
MPISIM_ALIAS(Allgather)
MPISIM_ALIAS(Allgatherv)
MPISIM_ALIAS(Scatter)
MPISIM_ALIAS(Scatterv)
MPISIM_ALIAS(Alltoall)
MPISIM_ALIAS(Alltoallv)
MPISIM_ALIAS(Alltoallw)
MPISIM_ALIAS(Reduce_scatter)
MPISIM_ALIAS(Reduce_scatter_block)
