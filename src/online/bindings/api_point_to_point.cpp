// Point-to-point: MPI_Send/Ssend/Rsend/Recv/Isend/Issend/Irsend/Ibsend/Irecv/Sendrecv, MPI_Probe/Iprobe,
// MPI_Get_count.
#include "online/bindings/PointToPoint.hpp"

#include "mpi/Mailbox.hpp"

#include <optional>
#include <vector>

using namespace mpisim::online;
using mpisim::mpi::Communicator;
using mpisim::mpi::DatatypePtr;

namespace {

// Standard, ready and synchronous blocking sends (MPI_Bsend is in api_buffered.cpp).
int blocking_send(Runtime& runtime, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  const char* call, mpisim::mpi::SendMode mode = mpisim::mpi::SendMode::Standard)
{
  return failure_aware(runtime, comm, call, [&]() -> int {
    ApiScope scope(runtime, call);
    MessageArguments args;
    MPISIM_TRY(check_send(runtime, comm, count, type, dest, tag, call, args));
    rebase_bottom(buf, count, args);
    if (dest == MPI_PROC_NULL)
      return MPI_SUCCESS;
    const size_t bytes = args.type->packed_size(count);
    scope.describe(args.comm, dest, static_cast<double>(bytes), tag);
    if (args.type->is_contiguous()) {
      scope.rank().send(*args.comm, dest, tag, static_cast<double>(bytes), buf, mode);
    } else {
      std::vector<std::byte> packed(bytes);
      args.type->pack(buf, count, packed.data());
      scope.rank().send(*args.comm, dest, tag, static_cast<double>(bytes), packed.data(), mode);
    }
    return MPI_SUCCESS;
  });
}

int truncation_error(Runtime& runtime, MPI_Comm comm, const mpisim::mpi::Status& status, const char* call)
{
  if (not status.truncated)
    return MPI_SUCCESS;
  return raise_error(runtime, comm, MPI_ERR_TRUNCATE, call,
                     "message of " + std::to_string(static_cast<long long>(status.bytes)) + " bytes from rank " +
                         std::to_string(status.source) + " (tag " + std::to_string(status.tag) +
                         ") is larger than the receive buffer");
}

// Sendrecv's timeline slice: its send (arguments not checked yet: unknown handles describe nothing).
void describe_exchange(ApiScope& scope, MPI_Comm comm, int dest, int count, MPI_Datatype type, int tag)
{
  const DatatypePtr resolved = scope.runtime().datatypes().find(type);
  if (resolved != nullptr && count >= 0)
    scope.describe(scope.runtime().comm(comm), dest, static_cast<double>(resolved->packed_size(count)), tag);
}

} // namespace

extern "C" int PMPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  Runtime& runtime = Runtime::get();
  return blocking_send(runtime, buf, count, type, dest, tag, comm, "MPI_Send");
}

extern "C" int PMPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  Runtime& runtime = Runtime::get();
  // Returns only once a receive has matched the message, whatever its size (carried as a rendezvous).
  return blocking_send(runtime, buf, count, type, dest, tag, comm, "MPI_Ssend", mpisim::mpi::SendMode::Synchronous);
}

extern "C" int PMPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  Runtime& runtime = Runtime::get();
  return blocking_send(runtime, buf, count, type, dest, tag, comm, "MPI_Rsend");
}

extern "C" int PMPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                         MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, comm, "MPI_Recv", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Recv");
    MessageArguments args;
    MPISIM_TRY(check_receive(runtime, comm, count, type, source, tag, "MPI_Recv", args));
    rebase_bottom(buf, count, args);
    scope.describe(args.comm, source, static_cast<double>(args.type->packed_size(count)), tag);
    if (source == MPI_PROC_NULL) {
      fill_empty_status(status);
      return MPI_SUCCESS;
    }
    mpisim::mpi::RequestPtr request = scope.rank().irecv(*args.comm, source, tag, buf, count, args.type);
    const mpisim::mpi::Status result = scope.rank().wait(*request);
    fill_status(status, result);
    return truncation_error(runtime, comm, result, "MPI_Recv");
  });
}

namespace {
int immediate_send(Runtime& runtime, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request, SendCall kind, const char* call)
{
  return failure_aware(runtime, comm, call, [&]() -> int {
    ApiScope scope(runtime, call);
    MessageArguments args;
    MPISIM_TRY(check_send(runtime, comm, count, type, dest, tag, call, args));
    rebase_bottom(buf, count, args);
    scope.describe(args.comm, dest, static_cast<double>(args.type->packed_size(count)), tag);
    RequestEntry entry{.owner = ErrorOwner::communicator(comm)};
    MPISIM_TRY(post_send(runtime, scope.rank(), comm, args, buf, count, dest, tag, kind, call, entry.request));
    *request = scope.runtime().requests().add(std::move(entry));
    return MPI_SUCCESS;
  });
}
} // namespace

extern "C" int PMPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request* request)
{
  Runtime& runtime = Runtime::get();
  return immediate_send(runtime, buf, count, type, dest, tag, comm, request, SendCall::Standard, "MPI_Isend");
}

extern "C" int PMPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request* request)
{
  Runtime& runtime = Runtime::get();
  return immediate_send(runtime, buf, count, type, dest, tag, comm, request, SendCall::Synchronous, "MPI_Issend");
}

extern "C" int PMPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request* request)
{
  Runtime& runtime = Runtime::get();
  return immediate_send(runtime, buf, count, type, dest, tag, comm, request, SendCall::Ready, "MPI_Irsend");
}

extern "C" int PMPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request* request)
{
  Runtime& runtime = Runtime::get();
  return immediate_send(runtime, buf, count, type, dest, tag, comm, request, SendCall::Buffered, "MPI_Ibsend");
}

namespace {
// MPI_Irecv, and the receive of MPI_Sendrecv (whose errors name MPI_Irecv, as they did).
int immediate_receive(Runtime& runtime, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                      MPI_Request* request, const char* call = __builtin_FUNCTION())
{
  return failure_aware(runtime, comm, call, [&]() -> int {
    ApiScope scope(runtime, call);
    MessageArguments args;
    MPISIM_TRY(check_receive(runtime, comm, count, type, source, tag, "MPI_Irecv", args));
    rebase_bottom(buf, count, args);
    scope.describe(args.comm, source, static_cast<double>(args.type->packed_size(count)), tag);
    RequestEntry entry{.owner = ErrorOwner::communicator(comm)};
    if (source != MPI_PROC_NULL)
      entry.request = scope.rank().irecv(*args.comm, source, tag, buf, count, args.type);
    *request = scope.runtime().requests().add(std::move(entry));
    return MPI_SUCCESS;
  });
}
} // namespace

extern "C" int PMPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                          MPI_Request* request)
{
  Runtime& runtime = Runtime::get();
  return immediate_receive(runtime, buf, count, type, source, tag, comm, request);
}

extern "C" int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                             MPI_Comm comm, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, comm, "MPI_Sendrecv", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Sendrecv");
    describe_exchange(scope, comm, dest, sendcount, sendtype, sendtag);
    MPI_Request requests[2];
    MPISIM_TRY(immediate_receive(runtime, recvbuf, recvcount, recvtype, source, recvtag, comm, &requests[0]));
    MPISIM_TRY(immediate_send(runtime, sendbuf, sendcount, sendtype, dest, sendtag, comm, &requests[1],
                              SendCall::Standard, "MPI_Isend"));
    MPI_Status statuses[2];
    const int error = wait_all(runtime, 2, requests, statuses);
    if (status != MPI_STATUS_IGNORE)
      *status = statuses[0];
    return error;
  });
}

extern "C" int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
                                     int recvtag, MPI_Comm comm, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, comm, "MPI_Sendrecv_replace", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Sendrecv_replace");
    MessageArguments args;
    MPISIM_TRY(check_send(runtime, comm, count, type, dest == MPI_PROC_NULL ? 0 : dest, sendtag, "MPI_Sendrecv_replace",
                          args));
    scope.describe(args.comm, dest, static_cast<double>(args.type->packed_size(count)), sendtag);
    // The outgoing data is packed first, so the receive may overwrite the buffer.
    std::vector<std::byte> outgoing(args.type->packed_size(count));
    args.type->pack(buf, count, outgoing.data());
    MPI_Request requests[2];
    MPISIM_TRY(immediate_receive(runtime, buf, count, type, source, recvtag, comm, &requests[0]));
    MPISIM_TRY(immediate_send(runtime, outgoing.data(), static_cast<int>(outgoing.size()), MPI_BYTE, dest, sendtag,
                              comm, &requests[1], SendCall::Standard, "MPI_Isend"));
    MPI_Status statuses[2];
    const int error = wait_all(runtime, 2, requests, statuses);
    if (status != MPI_STATUS_IGNORE)
      *status = statuses[0];
    return error;
  });
}

extern "C" int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, comm, "MPI_Probe", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Probe");
    const Communicator* c = nullptr;
    MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Probe", c));
    MPISIM_TRY(check_peer(runtime, comm, *c, source, true, "MPI_Probe"));
    MPISIM_TRY(check_tag(runtime, comm, tag, true, "MPI_Probe"));
    if (source == MPI_PROC_NULL) {
      fill_empty_status(status);
      return MPI_SUCCESS;
    }
    fill_status(status, scope.rank().probe(*c, source, tag));
    return MPI_SUCCESS;
  });
}

extern "C" int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, comm, "MPI_Iprobe", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Iprobe");
    const Communicator* c = nullptr;
    MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Iprobe", c));
    MPISIM_TRY(check_peer(runtime, comm, *c, source, true, "MPI_Iprobe"));
    MPISIM_TRY(check_tag(runtime, comm, tag, true, "MPI_Iprobe"));
    if (source == MPI_PROC_NULL) {
      *flag = 1;
      fill_empty_status(status);
      return MPI_SUCCESS;
    }
    const std::optional<mpisim::mpi::Status> found = scope.rank().iprobe(*c, source, tag);
    *flag = found.has_value();
    if (found)
      fill_status(status, *found);
    return MPI_SUCCESS;
  });
}

extern "C" int PMPI_Get_count(const MPI_Status* status, MPI_Datatype type, int* count)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t = runtime.datatypes().find(type);
  MPISIM_CHECK(runtime, t != nullptr, MPI_COMM_WORLD, MPI_ERR_TYPE, "invalid datatype " + std::to_string(type));
  if (t->size() == 0)
    *count = 0;
  else if (status->mpisim_bytes % static_cast<long long>(t->size()) != 0)
    *count = MPI_UNDEFINED;
  else
    *count = static_cast<int>(status->mpisim_bytes / static_cast<long long>(t->size()));
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Send)
MPISIM_ALIAS(Ssend)
MPISIM_ALIAS(Rsend)
MPISIM_ALIAS(Recv)
MPISIM_ALIAS(Isend)
MPISIM_ALIAS(Issend)
MPISIM_ALIAS(Irsend)
MPISIM_ALIAS(Ibsend)
MPISIM_ALIAS(Irecv)
MPISIM_ALIAS(Sendrecv)
MPISIM_ALIAS(Sendrecv_replace)
MPISIM_ALIAS(Probe)
MPISIM_ALIAS(Iprobe)
MPISIM_ALIAS(Get_count)
