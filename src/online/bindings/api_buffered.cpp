// Buffered mode: MPI_Buffer_attach/detach, MPI_Bsend (MPI_Ibsend and MPI_Bsend_init post through
// post_buffered_send too).
//
// A buffered send never waits for its receiver: its data is copied and the call returns (after the model's send
// overhead). The copy takes room in the rank's attached buffer - the packed size plus MPI_BSEND_OVERHEAD - until its
// data has arrived; a send that does not fit in the room left raises MPI_ERR_BUFFER. MPI_Buffer_detach waits until
// every copy has left. The room is counted, not allocated: the copies themselves live with the simulated messages.
#include "online/bindings/PointToPoint.hpp"

#include <vector>

using namespace mpisim::online;

namespace {

// Room taken by the buffered messages still in flight (forgetting those that have arrived).
size_t room_in_use(AttachedBuffer& buffer)
{
  std::erase_if(buffer.in_use, [](const auto& message) { return message.first->done(); });
  size_t used = 0;
  for (const auto& message : buffer.in_use)
    used += message.second;
  return used;
}

} // namespace

namespace mpisim::online {

int post_buffered_send(Runtime& runtime, mpi::Rank& rank, MPI_Comm comm, const MessageArguments& args, const void* buf,
                       int count, int dest, int tag, bool blocking, const char* call, mpi::RequestPtr* posted)
{
  if (dest == MPI_PROC_NULL)
    return MPI_SUCCESS;
  AttachedBuffer& buffer = runtime.attached_buffer(rank.world_rank());
  const size_t bytes = args.type->packed_size(static_cast<size_t>(count));
  const size_t room = bytes + MPI_BSEND_OVERHEAD;
  const size_t used = buffer.attached ? room_in_use(buffer) : 0;
  const size_t capacity = buffer.attached ? static_cast<size_t>(buffer.size) : 0;
  if (used + room > capacity)
    return raise_error(
        runtime, comm, MPI_ERR_BUFFER, call,
        "a buffered message of " + std::to_string(bytes) + " bytes needs " + std::to_string(room) +
            " bytes of the attached buffer (MPI_BSEND_OVERHEAD included); " +
            (buffer.attached ? std::to_string(capacity - used) + " of " + std::to_string(capacity) + " bytes are free"
                             : std::string("no buffer is attached")));
  mpi::RequestPtr copy;
  if (blocking && args.type->is_contiguous()) {
    copy = rank.bsend(*args.comm, dest, tag, static_cast<double>(bytes), buf);
  } else if (blocking) {
    std::vector<std::byte> packed(bytes);
    args.type->pack(buf, static_cast<size_t>(count), packed.data());
    copy = rank.bsend(*args.comm, dest, tag, static_cast<double>(bytes), packed.data()); // copied by the message
  } else {
    copy = rank.isend(*args.comm, dest, tag, buf, static_cast<size_t>(count), args.type, mpi::SendMode::Buffered);
  }
  if (posted != nullptr) {
    // The application's request completes at once (a buffered send is local: waiting for it never waits for the
    // receiver); it stands for the copy, which MPI_Cancel can take back until a receive matches it.
    auto local = std::make_shared<mpi::Request>(mpi::RequestKind::Send, rank.world_rank(), *args.comm, dest, tag,
                                                static_cast<double>(bytes));
    local->status.message = copy->status.message;
    local->buffered_copy = copy;
    local->complete();
    *posted = std::move(local);
  }
  buffer.in_use.emplace_back(std::move(copy), room);
  return MPI_SUCCESS;
}

} // namespace mpisim::online

extern "C" int PMPI_Buffer_attach(void* buffer, int size)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  AttachedBuffer& attached = runtime.attached_buffer(runtime.current_rank());
  MPISIM_CHECK(runtime, not attached.attached, MPI_COMM_WORLD, MPI_ERR_BUFFER,
               "a buffer is already attached (detach it first)");
  MPISIM_CHECK(runtime, size >= 0, MPI_COMM_WORLD, MPI_ERR_ARG, "negative buffer size " + std::to_string(size));
  MPISIM_CHECK(runtime, buffer != nullptr || size == 0, MPI_COMM_WORLD, MPI_ERR_BUFFER, "null buffer");
  attached.address = buffer;
  attached.size = size;
  attached.attached = true;
  return MPI_SUCCESS;
}

// `buffer_addr` is really a void** (MPI's C binding declares it void* for historical reasons).
extern "C" int PMPI_Buffer_detach(void* buffer_addr, int* size)
{
  ApiScope scope;
  AttachedBuffer& attached = scope.runtime().attached_buffer(scope.runtime().current_rank());
  std::vector<mpisim::mpi::RequestPtr> copies;
  for (const auto& message : attached.in_use)
    copies.push_back(message.first);
  scope.rank().waitall(copies); // the messages still in flight leave the buffer first
  *static_cast<void**>(buffer_addr) = attached.address;
  *size = attached.size;
  attached = AttachedBuffer{};
  return MPI_SUCCESS;
}

extern "C" int PMPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  MessageArguments args;
  MPISIM_TRY(check_send(runtime, comm, count, type, dest, tag, "MPI_Bsend", args));
  rebase_bottom(buf, count, args);
  return post_buffered_send(runtime, scope.rank(), comm, args, buf, count, dest, tag, true, "MPI_Bsend");
}

MPISIM_ALIAS(Buffer_attach)
MPISIM_ALIAS(Buffer_detach)
MPISIM_ALIAS(Bsend)
