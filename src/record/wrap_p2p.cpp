// Point-to-point calls. Every send mode is written as the TI format's single send (`send`, or `isend` when
// non-blocking): SimGrid's own writer emits `Ssend`, `bsend`, `ISsend`, which its replay does not accept.
#include "record/Export.hpp"
#include "record/Recorder.hpp"

using mpisim::record::Call;
using mpisim::record::StatusSlot;

// ------------------------------------------------------------------------------------------------ blocking sends

MPISIM_EXPORT int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  Call call("MPI_Send");
  int rc = PMPI_Send(buf, count, type, dest, tag, comm);
  if (call && rc == MPI_SUCCESS)
    call.rec().blocking_send(comm, dest, tag, count, type, call.args);
  return rc;
}

MPISIM_EXPORT int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  Call call("MPI_Ssend");
  int rc = PMPI_Ssend(buf, count, type, dest, tag, comm);
  if (call && rc == MPI_SUCCESS)
    call.rec().blocking_send(comm, dest, tag, count, type, call.args);
  return rc;
}

MPISIM_EXPORT int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  Call call("MPI_Bsend");
  int rc = PMPI_Bsend(buf, count, type, dest, tag, comm);
  if (call && rc == MPI_SUCCESS)
    call.rec().blocking_send(comm, dest, tag, count, type, call.args);
  return rc;
}

MPISIM_EXPORT int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  Call call("MPI_Rsend");
  int rc = PMPI_Rsend(buf, count, type, dest, tag, comm);
  if (call && rc == MPI_SUCCESS)
    call.rec().blocking_send(comm, dest, tag, count, type, call.args);
  return rc;
}

// -------------------------------------------------------------------------------------------------------- receive

MPISIM_EXPORT int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                           MPI_Status* status)
{
  Call call("MPI_Recv");
  if (not call)
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
  StatusSlot slot(status);
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, slot.get());
  if (rc == MPI_SUCCESS)
    call.rec().blocking_recv(comm, source, tag, count, type, *slot, call.args);
  return rc;
}

// ------------------------------------------------------------------------------------------------------- sendrecv

MPISIM_EXPORT int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                               void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                               MPI_Comm comm, MPI_Status* status)
{
  Call call("MPI_Sendrecv");
  if (not call)
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
  StatusSlot slot(status);
  int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, slot.get());
  if (rc == MPI_SUCCESS)
    call.rec().sendrecv(comm, dest, sendtag, sendcount, sendtype, source, recvtag, recvcount, recvtype, *slot,
                        call.args);
  return rc;
}

MPISIM_EXPORT int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
                                       int recvtag, MPI_Comm comm, MPI_Status* status)
{
  Call call("MPI_Sendrecv_replace");
  if (not call)
    return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  StatusSlot slot(status);
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, slot.get());
  if (rc == MPI_SUCCESS)
    call.rec().sendrecv(comm, dest, sendtag, count, type, source, recvtag, count, type, *slot, call.args);
  return rc;
}

// ------------------------------------------------------------------------------------------------- non-blocking

MPISIM_EXPORT int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                            MPI_Request* request)
{
  Call call("MPI_Isend");
  int rc = PMPI_Isend(buf, count, type, dest, tag, comm, request);
  if (call && rc == MPI_SUCCESS)
    call.rec().isend(*request, comm, dest, tag, count, type, call.args);
  return rc;
}

MPISIM_EXPORT int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                             MPI_Request* request)
{
  Call call("MPI_Issend");
  int rc = PMPI_Issend(buf, count, type, dest, tag, comm, request);
  if (call && rc == MPI_SUCCESS)
    call.rec().isend(*request, comm, dest, tag, count, type, call.args);
  return rc;
}

MPISIM_EXPORT int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                             MPI_Request* request)
{
  Call call("MPI_Ibsend");
  int rc = PMPI_Ibsend(buf, count, type, dest, tag, comm, request);
  if (call && rc == MPI_SUCCESS)
    call.rec().isend(*request, comm, dest, tag, count, type, call.args);
  return rc;
}

MPISIM_EXPORT int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                             MPI_Request* request)
{
  Call call("MPI_Irsend");
  int rc = PMPI_Irsend(buf, count, type, dest, tag, comm, request);
  if (call && rc == MPI_SUCCESS)
    call.rec().isend(*request, comm, dest, tag, count, type, call.args);
  return rc;
}

MPISIM_EXPORT int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                            MPI_Request* request)
{
  Call call("MPI_Irecv");
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  if (call && rc == MPI_SUCCESS)
    call.rec().irecv(*request, comm, source, tag, count, type, call.args);
  return rc;
}

// ---------------------------------------------------------------------------------------------------- persistent

MPISIM_EXPORT int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                                MPI_Request* request)
{
  Call call("MPI_Send_init");
  int rc = PMPI_Send_init(buf, count, type, dest, tag, comm, request);
  if (call && rc == MPI_SUCCESS)
    call.rec().persistent(*request, false, comm, dest, tag, count, type);
  return rc;
}

MPISIM_EXPORT int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                                 MPI_Request* request)
{
  Call call("MPI_Ssend_init");
  int rc = PMPI_Ssend_init(buf, count, type, dest, tag, comm, request);
  if (call && rc == MPI_SUCCESS)
    call.rec().persistent(*request, false, comm, dest, tag, count, type);
  return rc;
}

MPISIM_EXPORT int MPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                                 MPI_Request* request)
{
  Call call("MPI_Bsend_init");
  int rc = PMPI_Bsend_init(buf, count, type, dest, tag, comm, request);
  if (call && rc == MPI_SUCCESS)
    call.rec().persistent(*request, false, comm, dest, tag, count, type);
  return rc;
}

MPISIM_EXPORT int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                                 MPI_Request* request)
{
  Call call("MPI_Rsend_init");
  int rc = PMPI_Rsend_init(buf, count, type, dest, tag, comm, request);
  if (call && rc == MPI_SUCCESS)
    call.rec().persistent(*request, false, comm, dest, tag, count, type);
  return rc;
}

MPISIM_EXPORT int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                                MPI_Request* request)
{
  Call call("MPI_Recv_init");
  int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, request);
  if (call && rc == MPI_SUCCESS)
    call.rec().persistent(*request, true, comm, source, tag, count, type);
  return rc;
}

MPISIM_EXPORT int MPI_Start(MPI_Request* request)
{
  Call call("MPI_Start");
  int rc = PMPI_Start(request);
  if (call && rc == MPI_SUCCESS)
    call.rec().start_persistent(*request, call.args);
  return rc;
}

MPISIM_EXPORT int MPI_Startall(int count, MPI_Request requests[])
{
  Call call("MPI_Startall");
  int rc = PMPI_Startall(count, requests);
  if (call && rc == MPI_SUCCESS) {
    for (int i = 0; i < count; ++i)
      call.rec().start_persistent(requests[i], call.args);
  }
  return rc;
}

// -------------------------------------------------------------------------------------------------------- probes
// No TI action: only the timeline shows them (their time is not counted as computation).

MPISIM_EXPORT int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status)
{
  Call call("MPI_Probe");
  if (not call)
    return PMPI_Probe(source, tag, comm, status);
  StatusSlot slot(status);
  int rc = PMPI_Probe(source, tag, comm, slot.get());
  if (rc == MPI_SUCCESS) {
    auto c = call.rec().comms().get(comm);
    call.args.comm = c->id;
    if ((*slot).MPI_SOURCE >= 0)
      call.args.peer = c->to_world((*slot).MPI_SOURCE);
    call.args.tag = (*slot).MPI_TAG;
    call.args.has_tag = true;
  }
  return rc;
}

MPISIM_EXPORT int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status)
{
  Call call("MPI_Iprobe");
  if (not call)
    return PMPI_Iprobe(source, tag, comm, flag, status);
  StatusSlot slot(status);
  int rc = PMPI_Iprobe(source, tag, comm, flag, slot.get());
  if (rc == MPI_SUCCESS) {
    auto c = call.rec().comms().get(comm);
    call.args.comm = c->id;
    if (*flag != 0 && (*slot).MPI_SOURCE >= 0) {
      call.args.peer = c->to_world((*slot).MPI_SOURCE);
      call.args.tag = (*slot).MPI_TAG;
      call.args.has_tag = true;
    }
  }
  return rc;
}
