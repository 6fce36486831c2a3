// Collective calls (see Collectives.hpp for how each is written). The non-blocking ones (MPI_Ibcast, ...) have no TI
// action in SimGrid 3.32: they are written as the blocking collective, at the point the application started them
// (the overlap with what follows, up to the wait, is lost); waiting for their request writes nothing.
#include "record/Collectives.hpp"
#include "record/Export.hpp"

namespace collective = mpisim::record::collective;
using mpisim::record::Call;

namespace {

void note_nonblocking(Call& call, const char* name)
{
  call.rec().note("non-blocking collectives written as blocking ones where they start", name);
}

} // namespace

// ------------------------------------------------------------------------------------------------------ blocking

MPISIM_EXPORT int MPI_Barrier(MPI_Comm comm)
{
  Call call("MPI_Barrier");
  int rc = PMPI_Barrier(comm);
  if (call && rc == MPI_SUCCESS)
    collective::barrier(call, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  Call call("MPI_Bcast");
  int rc = PMPI_Bcast(buffer, count, type, root, comm);
  if (call && rc == MPI_SUCCESS)
    collective::bcast(call, count, type, root, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                             MPI_Comm comm)
{
  Call call("MPI_Reduce");
  int rc = PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  if (call && rc == MPI_SUCCESS)
    collective::reduce(call, count, type, root, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                MPI_Comm comm)
{
  Call call("MPI_Allreduce");
  int rc = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
  if (call && rc == MPI_SUCCESS)
    collective::allreduce(call, count, type, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  Call call("MPI_Scan");
  int rc = PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
  if (call && rc == MPI_SUCCESS)
    collective::scan(call, false, count, type, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  Call call("MPI_Exscan");
  int rc = PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
  if (call && rc == MPI_SUCCESS)
    collective::scan(call, true, count, type, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  Call call("MPI_Gather");
  int rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (call && rc == MPI_SUCCESS)
    collective::gather(call, sendbuf, sendcount, sendtype, recvcount, recvtype, root, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                              MPI_Comm comm)
{
  Call call("MPI_Gatherv");
  int rc = PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  if (call && rc == MPI_SUCCESS)
    collective::gatherv(call, sendbuf, sendcount, sendtype, recvcounts, recvtype, root, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  Call call("MPI_Scatter");
  int rc = PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (call && rc == MPI_SUCCESS)
    collective::scatter(call, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                               void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  Call call("MPI_Scatterv");
  int rc = PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (call && rc == MPI_SUCCESS)
    collective::scatterv(call, sendcounts, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                MPI_Datatype recvtype, MPI_Comm comm)
{
  Call call("MPI_Allgather");
  int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (call && rc == MPI_SUCCESS)
    collective::allgather(call, sendbuf, sendcount, sendtype, recvcount, recvtype, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  Call call("MPI_Allgatherv");
  int rc = PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  if (call && rc == MPI_SUCCESS)
    collective::allgatherv(call, sendbuf, sendcount, sendtype, recvcounts, recvtype, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype, MPI_Comm comm)
{
  Call call("MPI_Alltoall");
  int rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (call && rc == MPI_SUCCESS)
    collective::alltoall(call, sendbuf, sendcount, sendtype, recvcount, recvtype, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                                void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                                MPI_Comm comm)
{
  Call call("MPI_Alltoallv");
  int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  if (call && rc == MPI_SUCCESS)
    collective::alltoallv(call, sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type,
                                     MPI_Op op, MPI_Comm comm)
{
  Call call("MPI_Reduce_scatter");
  int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
  if (call && rc == MPI_SUCCESS)
    collective::reduce_scatter(call, recvcounts, type, comm);
  return rc;
}

MPISIM_EXPORT int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type,
                                           MPI_Op op, MPI_Comm comm)
{
  Call call("MPI_Reduce_scatter_block");
  int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
  if (call && rc == MPI_SUCCESS)
    collective::reduce_scatter_block(call, recvcount, type, comm);
  return rc;
}

// -------------------------------------------------------------------------------------------------- non-blocking

MPISIM_EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Ibarrier");
  int rc = PMPI_Ibarrier(comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Ibarrier");
    collective::barrier(call, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Ibcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Ibcast");
  int rc = PMPI_Ibcast(buffer, count, type, root, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Ibcast");
    collective::bcast(call, count, type, root, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                              MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Ireduce");
  int rc = PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Ireduce");
    collective::reduce(call, count, type, root, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                 MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Iallreduce");
  int rc = PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Iallreduce");
    collective::allreduce(call, count, type, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                            MPI_Request* request)
{
  Call call("MPI_Iscan");
  int rc = PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Iscan");
    collective::scan(call, false, count, type, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Iexscan");
  int rc = PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Iexscan");
    collective::scan(call, true, count, type, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Igather");
  int rc = PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Igather");
    collective::gather(call, sendbuf, sendcount, sendtype, recvcount, recvtype, root, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                               MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Igatherv");
  int rc = PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Igatherv");
    collective::gatherv(call, sendbuf, sendcount, sendtype, recvcounts, recvtype, root, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Iscatter");
  int rc = PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Iscatter");
    collective::scatter(call, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                MPI_Request* request)
{
  Call call("MPI_Iscatterv");
  int rc = PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Iscatterv");
    collective::scatterv(call, sendcounts, sendtype, recvbuf, recvcount, recvtype, root, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Iallgather");
  int rc = PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Iallgather");
    collective::allgather(call, sendbuf, sendcount, sendtype, recvcount, recvtype, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Request* request)
{
  Call call("MPI_Iallgatherv");
  int rc = PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Iallgatherv");
    collective::allgatherv(call, sendbuf, sendcount, sendtype, recvcounts, recvtype, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Ialltoall");
  int rc = PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Ialltoall");
    collective::alltoall(call, sendbuf, sendcount, sendtype, recvcount, recvtype, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Ialltoallv");
  int rc =
      PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Ialltoallv");
    collective::alltoallv(call, sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type,
                                      MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Ireduce_scatter");
  int rc = PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Ireduce_scatter");
    collective::reduce_scatter(call, recvcounts, type, comm);
  }
  return rc;
}

MPISIM_EXPORT int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type,
                                            MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  Call call("MPI_Ireduce_scatter_block");
  int rc = PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm, request);
  if (call && rc == MPI_SUCCESS) {
    note_nonblocking(call, "MPI_Ireduce_scatter_block");
    collective::reduce_scatter_block(call, recvcount, type, comm);
  }
  return rc;
}
