#include "online/bindings/Arguments.hpp"

namespace mpisim::online {

int resolve_comm(Runtime& runtime, MPI_Comm comm, const char* call, const mpi::Communicator*& out)
{
  runtime.check_call_allowed(call); // local calls too (MPI_Comm_rank after MPI_Finalize)
  out = runtime.comm(comm);
  return out != nullptr ? MPI_SUCCESS : runtime.communicators().raise_invalid(runtime, comm, MPI_COMM_WORLD, call);
}

int resolve_intracomm(Runtime& runtime, MPI_Comm comm, const char* call, const mpi::Communicator*& out)
{
  MPISIM_TRY(resolve_comm(runtime, comm, call, out));
  if (not out->is_inter())
    return MPI_SUCCESS;
  return raise_error(runtime, comm, MPI_ERR_COMM, call,
                     "communicator " + std::to_string(comm) +
                         " is an intercommunicator: mpisim runs point-to-point calls, MPI_Comm_dup, MPI_Comm_split, "
                         "MPI_Comm_create, MPI_Comm_free and MPI_Intercomm_merge on intercommunicators, not this "
                         "call");
}

int resolve_type(Runtime& runtime, MPI_Comm comm, MPI_Datatype type, const char* call, mpi::DatatypePtr& out)
{
  runtime.check_call_allowed(call);
  return runtime.datatypes().resolve(runtime, type, comm, call, out);
}

int resolve_op(Runtime& runtime, MPI_Comm comm, MPI_Op op, const char* call, mpi::ReduceOpPtr& out)
{
  return runtime.operations().resolve(runtime, op, comm, call, out);
}

int check_op_defined(Runtime& runtime, MPI_Comm comm, const mpi::ReduceOp& op, const mpi::Datatype& type,
                     const char* call)
{
  const std::string undefined = op.undefined_for(type);
  return undefined.empty() ? MPI_SUCCESS : raise_error(runtime, comm, MPI_ERR_OP, call, undefined);
}

int check_count(Runtime& runtime, MPI_Comm comm, int count, const char* call)
{
  if (count < 0)
    return raise_error(runtime, comm, MPI_ERR_COUNT, call, "negative count " + std::to_string(count));
  return MPI_SUCCESS;
}

int check_peer(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& c, int peer, bool any_allowed,
               const char* call)
{
  if ((peer >= 0 && peer < c.peer_count()) || peer == MPI_PROC_NULL || (any_allowed && peer == MPI_ANY_SOURCE))
    return MPI_SUCCESS;
  return raise_error(runtime, comm, MPI_ERR_RANK, call,
                     "invalid rank " + std::to_string(peer) +
                         (c.is_inter() ? " in the remote group of " : " in a communicator of ") +
                         std::to_string(c.peer_count()) + " ranks");
}

int check_tag(Runtime& runtime, MPI_Comm comm, int tag, bool any_allowed, const char* call)
{
  if (tag >= 0 || (any_allowed && tag == MPI_ANY_TAG))
    return MPI_SUCCESS;
  return raise_error(runtime, comm, MPI_ERR_TAG, call, "invalid tag " + std::to_string(tag));
}

int check_root(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& c, int root, const char* call)
{
  if (root >= 0 && root < c.size())
    return MPI_SUCCESS;
  return raise_error(runtime, comm, MPI_ERR_ROOT, call,
                     "invalid root " + std::to_string(root) + " in a communicator of " + std::to_string(c.size()) +
                         " ranks");
}

void fill_status(MPI_Status* status, const mpi::Status& from)
{
  if (status == MPI_STATUS_IGNORE)
    return;
  status->MPI_SOURCE = from.source;
  status->MPI_TAG = from.tag;
  status->MPI_ERROR = from.truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  status->mpisim_bytes = static_cast<long long>(from.bytes);
  status->mpisim_cancelled = from.cancelled ? 1 : 0;
}

void fill_empty_status(MPI_Status* status)
{
  if (status == MPI_STATUS_IGNORE)
    return;
  status->MPI_SOURCE = MPI_PROC_NULL;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->mpisim_bytes = 0;
  status->mpisim_cancelled = 0;
}

} // namespace mpisim::online
