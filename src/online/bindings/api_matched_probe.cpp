// Matched probes: MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv.
//
// A matched probe takes the message it finds out of matching: no other receive or probe can match it any more,
// only the MPI_Mrecv/MPI_Imrecv given its MPI_Message handle (which then becomes MPI_MESSAGE_NULL). Probing
// MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, whose receive completes at once with a status from MPI_PROC_NULL.
#include "online/bindings/PointToPoint.hpp"

using namespace mpisim::online;

namespace {

int check_probe(Runtime& runtime, MPI_Comm comm, int source, int tag, const char* call,
                const mpisim::mpi::Communicator*& out)
{
  MPISIM_TRY(resolve_comm(runtime, comm, call, out));
  MPISIM_TRY(check_peer(runtime, comm, *out, source, true, call));
  return check_tag(runtime, comm, tag, true, call);
}

void give_message(Runtime& runtime, const mpisim::mpi::MessagePtr& found, MPI_Message* message, MPI_Status* status)
{
  fill_status(status, mpisim::mpi::Status{found->source(), found->tag(), found->bytes(), false, found->id()});
  *message = runtime.requests().add_message(found);
}

// Resolves the message handle of MPI_Mrecv/MPI_Imrecv: the claimed message (null for MPI_MESSAGE_NO_PROC).
int take(Runtime& runtime, int count, MPI_Datatype type, MPI_Message* message, const char* call,
         mpisim::mpi::MessagePtr& out, mpisim::mpi::DatatypePtr& resolved)
{
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, call, resolved));
  MPISIM_TRY(check_count(runtime, MPI_COMM_WORLD, count, call));
  if (*message == MPI_MESSAGE_NO_PROC) {
    out = nullptr;
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
  }
  out = *message == MPI_MESSAGE_NULL ? nullptr : runtime.requests().take_message(*message);
  if (out == nullptr)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                       "invalid message handle " + std::to_string(*message) + " (already received?)");
  *message = MPI_MESSAGE_NULL;
  return MPI_SUCCESS;
}

} // namespace

extern "C" int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(check_probe(runtime, comm, source, tag, "MPI_Mprobe", c));
  if (source == MPI_PROC_NULL) {
    *message = MPI_MESSAGE_NO_PROC;
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  give_message(runtime, scope.rank().mprobe(*c, source, tag), message, status);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(check_probe(runtime, comm, source, tag, "MPI_Improbe", c));
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    *message = MPI_MESSAGE_NO_PROC;
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  mpisim::mpi::MessagePtr found = scope.rank().improbe(*c, source, tag);
  *flag = found != nullptr;
  if (found)
    give_message(runtime, found, message, status);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  mpisim::mpi::MessagePtr claimed;
  mpisim::mpi::DatatypePtr t;
  MPISIM_TRY(take(runtime, count, type, message, "MPI_Mrecv", claimed, t));
  if (claimed == nullptr) {
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  mpisim::mpi::RequestPtr request = scope.rank().mrecv(claimed, buf, static_cast<size_t>(count), t);
  const mpisim::mpi::Status result = scope.rank().wait(*request);
  fill_status(status, result);
  if (result.truncated)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_TRUNCATE, "MPI_Mrecv",
                       "message of " + std::to_string(static_cast<long long>(result.bytes)) +
                           " bytes is larger than the receive buffer");
  return MPI_SUCCESS;
}

extern "C" int PMPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request)
{
  ApiScope scope;
  mpisim::mpi::MessagePtr claimed;
  mpisim::mpi::DatatypePtr t;
  MPISIM_TRY(take(scope.runtime(), count, type, message, "MPI_Imrecv", claimed, t));
  RequestEntry entry; // MPI_MESSAGE_NO_PROC's: complete at once, under MPI_COMM_WORLD's handler
  if (claimed != nullptr) {
    entry.owner = ErrorOwner::communicator(scope.runtime().communicators().handle_of_context(claimed->context()));
    entry.request = scope.rank().mrecv(claimed, buf, static_cast<size_t>(count), t);
  }
  *request = scope.runtime().requests().add(std::move(entry));
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Mprobe)
MPISIM_ALIAS(Improbe)
MPISIM_ALIAS(Mrecv)
MPISIM_ALIAS(Imrecv)
