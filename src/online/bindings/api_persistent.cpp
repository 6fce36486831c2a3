// Persistent requests: MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init, MPI_Bsend_init, MPI_Recv_init, MPI_Start,
// MPI_Startall.
//
// An *_init call checks its arguments once and keeps how to post the operation; the request is inactive until
// MPI_Start posts it, exactly as the immediate call would (same checks' results, same timing); completing it
// (MPI_Wait, MPI_Test...) makes it inactive again, ready for the next MPI_Start. MPI_Request_free releases it.
#include "online/bindings/PointToPoint.hpp"

using namespace mpisim::online;

namespace {

int create(Runtime& runtime, MPI_Comm comm, std::function<int(mpisim::mpi::RequestPtr&)> start, MPI_Request* request)
{
  RequestEntry entry{.owner = ErrorOwner::communicator(comm)};
  entry.start = std::move(start);
  entry.persistent = true;
  entry.active = false;
  *request = runtime.requests().add(std::move(entry));
  return MPI_SUCCESS;
}

int send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request,
              SendCall kind, const char* call)
{
  ApiScope scope(call);
  Runtime& runtime = scope.runtime();
  MessageArguments args;
  MPISIM_TRY(check_send(runtime, comm, count, type, dest, tag, call, args));
  rebase_bottom(buf, count, args);
  return create(
      runtime, comm,
      [=, &runtime](mpisim::mpi::RequestPtr& out) {
        return post_send(runtime, runtime.rank(), comm, args, buf, count, dest, tag, kind, call, out);
      },
      request);
}

int start(Runtime& runtime, MPI_Request* request, const char* call)
{
  RequestEntry* entry = *request == MPI_REQUEST_NULL ? nullptr : runtime.requests().find(*request);
  if (entry == nullptr || not entry->persistent)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                       "request " + std::to_string(*request) + " is not a persistent request");
  if (entry->active)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                       "request " + std::to_string(*request) + " is already active (complete it first)");
  mpisim::mpi::RequestPtr posted;
  MPISIM_TRY(entry->start(posted));
  entry->request = std::move(posted);
  entry->active = true;
  return MPI_SUCCESS;
}

} // namespace

extern "C" int PMPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                              MPI_Request* request)
{
  return send_init(buf, count, type, dest, tag, comm, request, SendCall::Standard, "MPI_Send_init");
}

extern "C" int PMPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                               MPI_Request* request)
{
  return send_init(buf, count, type, dest, tag, comm, request, SendCall::Synchronous, "MPI_Ssend_init");
}

extern "C" int PMPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                               MPI_Request* request)
{
  return send_init(buf, count, type, dest, tag, comm, request, SendCall::Ready, "MPI_Rsend_init");
}

extern "C" int PMPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                               MPI_Request* request)
{
  return send_init(buf, count, type, dest, tag, comm, request, SendCall::Buffered, "MPI_Bsend_init");
}

extern "C" int PMPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                              MPI_Request* request)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  MessageArguments args;
  MPISIM_TRY(check_receive(runtime, comm, count, type, source, tag, "MPI_Recv_init", args));
  rebase_bottom(buf, count, args);
  return create(
      runtime, comm,
      [=, &runtime](mpisim::mpi::RequestPtr& out) {
        out = nullptr;
        if (source != MPI_PROC_NULL)
          out = runtime.rank().irecv(*args.comm, source, tag, buf, static_cast<size_t>(count), args.type);
        return MPI_SUCCESS;
      },
      request);
}

extern "C" int PMPI_Start(MPI_Request* request)
{
  ApiScope scope;
  return start(scope.runtime(), request, "MPI_Start");
}

extern "C" int PMPI_Startall(int count, MPI_Request requests[])
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  MPISIM_CHECK(runtime, count >= 0, MPI_COMM_WORLD, MPI_ERR_COUNT, "negative count " + std::to_string(count));
  for (int i = 0; i < count; ++i)
    MPISIM_TRY(start(runtime, &requests[i], "MPI_Startall"));
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Send_init)
MPISIM_ALIAS(Ssend_init)
MPISIM_ALIAS(Rsend_init)
MPISIM_ALIAS(Bsend_init)
MPISIM_ALIAS(Recv_init)
MPISIM_ALIAS(Start)
MPISIM_ALIAS(Startall)
