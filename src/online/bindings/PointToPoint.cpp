#include "online/bindings/PointToPoint.hpp"

namespace mpisim::online {

namespace {
// A send names a peer; a receive may also take any source and any tag.
int check_message(Runtime& runtime, MPI_Comm comm, int count, MPI_Datatype type, int peer, int tag, bool any_allowed,
                  const char* call, MessageArguments& out)
{
  MPISIM_TRY(resolve_comm(runtime, comm, call, out.comm));
  MPISIM_TRY(resolve_type(runtime, comm, type, call, out.type));
  MPISIM_TRY(check_count(runtime, comm, count, call));
  MPISIM_TRY(check_peer(runtime, comm, *out.comm, peer, any_allowed, call));
  return check_tag(runtime, comm, tag, any_allowed, call);
}
} // namespace

int check_send(Runtime& runtime, MPI_Comm comm, int count, MPI_Datatype type, int dest, int tag, const char* call,
               MessageArguments& out)
{
  return check_message(runtime, comm, count, type, dest, tag, false, call, out);
}

int check_receive(Runtime& runtime, MPI_Comm comm, int count, MPI_Datatype type, int source, int tag, const char* call,
                  MessageArguments& out)
{
  return check_message(runtime, comm, count, type, source, tag, true, call, out);
}

int post_send(Runtime& runtime, mpi::Rank& rank, MPI_Comm comm, const MessageArguments& args, const void* buf,
              int count, int dest, int tag, SendCall kind, const char* call, mpi::RequestPtr& out)
{
  out = nullptr;
  if (dest == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (kind == SendCall::Buffered)
    return post_buffered_send(runtime, rank, comm, args, buf, count, dest, tag, false, call, &out);
  const auto mode = kind == SendCall::Synchronous ? mpi::SendMode::Synchronous : mpi::SendMode::Standard;
  out = rank.isend(*args.comm, dest, tag, buf, static_cast<size_t>(count), args.type, mode);
  return MPI_SUCCESS;
}

void rebase_bottom(const void*& buf, int count, MessageArguments& args)
{
  if (buf != MPI_BOTTOM || count <= 0 || args.type->size() == 0)
    return;
  const std::ptrdiff_t start = args.type->true_lb();
  args.type = mpi::Datatype::hindexed_block(1, {-start}, args.type);
  buf = reinterpret_cast<const void*>(start); // NOLINT(performance-no-int-to-ptr): MPI_BOTTOM-relative absolute address
}

void rebase_bottom(void*& buf, int count, MessageArguments& args)
{
  const void* rebased = buf;
  rebase_bottom(rebased, count, args);
  buf = const_cast<void*>(rebased);
}

void fill_inactive_status(MPI_Status* status)
{
  if (status == MPI_STATUS_IGNORE)
    return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->mpisim_bytes = 0;
  status->mpisim_cancelled = 0;
}

} // namespace mpisim::online
