// Non-blocking collectives: the collective library runs the algorithm as its own actor; MPI_Wait/Test complete the
// request and unpack the results.
#include "online/bindings/CollectiveBuilders.hpp"

#include <vector>

using namespace mpisim::online;
using mpisim::mpi::Collective;

namespace {
template <typename Prepare> int start(MPI_Request* request, Prepare&& prepare, const char* call = __builtin_FUNCTION())
{
  ApiScope scope(call); // named after the MPI function calling this helper
  PreparedOut prepared(PreparedOut::Place::Heap);
  MPISIM_TRY(prepare(scope.runtime(), prepared));
  return start_nonblocking(scope, prepared.shared(), request);
}
} // namespace

extern "C" int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request)
{
  return start(request,
               [&](Runtime& runtime, PreparedOut& p) { return prepare_barrier(runtime, comm, "MPI_Ibarrier", p); });
}

extern "C" int PMPI_Ibcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_bcast(runtime, buffer, count, type, root, comm, "MPI_Ibcast", p);
  });
}

extern "C" int PMPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                            MPI_Comm comm, MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduction(runtime, Collective::Reduce, sendbuf, recvbuf, count, type, op, root, comm, "MPI_Ireduce",
                             p);
  });
}

extern "C" int PMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                               MPI_Comm comm, MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduction(runtime, Collective::Allreduce, sendbuf, recvbuf, count, type, op, -1, comm,
                             "MPI_Iallreduce", p);
  });
}

extern "C" int PMPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                          MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduction(runtime, Collective::Scan, sendbuf, recvbuf, count, type, op, -1, comm, "MPI_Iscan", p);
  });
}

extern "C" int PMPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                            MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduction(runtime, Collective::Exscan, sendbuf, recvbuf, count, type, op, -1, comm, "MPI_Iexscan",
                             p);
  });
}

extern "C" int PMPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_gather(runtime, sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype, root,
                          comm, "MPI_Igather", p);
  });
}

extern "C" int PMPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_gather(runtime, sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype, -1,
                          comm, "MPI_Iallgather", p);
  });
}

extern "C" int PMPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_scatter(runtime, sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf, recvcount, recvtype, root,
                           comm, "MPI_Iscatter", p);
  });
}

extern "C" int PMPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_alltoall(runtime, sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf, recvcount, nullptr,
                            nullptr, recvtype, comm, "MPI_Ialltoall", p);
  });
}

extern "C" int PMPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_gather(runtime, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root, comm,
                          "MPI_Igatherv", p);
  });
}

extern "C" int PMPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_gather(runtime, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, -1, comm,
                          "MPI_Iallgatherv", p);
  });
}

extern "C" int PMPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_scatter(runtime, sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           "MPI_Iscatterv", p);
  });
}

extern "C" int PMPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                               void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_alltoall(runtime, sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0, recvcounts, rdispls,
                            recvtype, comm, "MPI_Ialltoallv", p);
  });
}

extern "C" int PMPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                               const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_alltoallw(runtime, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                             comm, "MPI_Ialltoallw", p);
  });
}

extern "C" int PMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type,
                                    MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduce_scatter(runtime, sendbuf, recvbuf, recvcounts, type, op, comm, "MPI_Ireduce_scatter", p);
  });
}

extern "C" int PMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type,
                                          MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_size", c)); // the error names the call it was raised in before
  std::vector<int> recvcounts(c->size(), recvcount);           // read while preparing: need not outlive the call
  return start(request, [&](Runtime& runtime, PreparedOut& p) {
    return prepare_reduce_scatter(runtime, sendbuf, recvbuf, recvcounts.data(), type, op, comm,
                                  "MPI_Ireduce_scatter_block", p);
  });
}

MPISIM_ALIAS(Igatherv)
MPISIM_ALIAS(Iallgatherv)
MPISIM_ALIAS(Iscatterv)
MPISIM_ALIAS(Ialltoallv)
MPISIM_ALIAS(Ialltoallw)
MPISIM_ALIAS(Ireduce_scatter)
MPISIM_ALIAS(Ireduce_scatter_block)
MPISIM_ALIAS(Ibarrier)
MPISIM_ALIAS(Ibcast)
MPISIM_ALIAS(Ireduce)
MPISIM_ALIAS(Iallreduce)
MPISIM_ALIAS(Iscan)
MPISIM_ALIAS(Iexscan)
MPISIM_ALIAS(Igather)
MPISIM_ALIAS(Iallgather)
MPISIM_ALIAS(Iscatter)
MPISIM_ALIAS(Ialltoall)
