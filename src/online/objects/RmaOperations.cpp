#include "online/objects/RmaOperations.hpp"

#include "online/objects/Collectives.hpp"
#include "online/runtime/Runtime.hpp"

#include "mpi/Rank.hpp"
#include "mpi/ReduceOp.hpp"

#include <cstring>

namespace mpisim::online {

namespace {

constexpr int kOperationTag = 1; // origin -> target: puts, accumulates, get requests
constexpr int kReplyTag = 2;     // target -> origin: the data of a get

// What travels ahead of the data. The target datatype is read through the origin's description of it, which the
// origin keeps alive until the fence has completed (RmaEpoch::types): the simulated message stands for the
// datatype's description as well.
struct OperationHeader {
  RmaKind kind;
  MPI_Op op;
  MPI_Aint disp;
  int count;
  const mpi::Datatype* type;
};

// Sends one operation to its target and notes it in the origin's epoch. Puts and accumulates carry `count` elements
// of the origin's data (`data` may be MPI_BOTTOM), packed after the header; gets carry the header alone.
void issue(mpi::Rank& rank, const WindowAccess& window, const RmaTarget& target, const OperationHeader& header,
           const RmaOrigin* origin)
{
  RmaEpoch& epoch = window.part->epoch;
  const size_t data_bytes = origin ? origin->type->packed_size(static_cast<size_t>(origin->count)) : 0;
  auto message = std::make_unique<std::vector<std::byte>>(sizeof header + data_bytes);
  std::memcpy(message->data(), &header, sizeof header);
  if (data_bytes > 0)
    origin->type->pack(origin->address, static_cast<size_t>(origin->count), message->data() + sizeof header);
  epoch.requests.push_back(
      rank.isend(*window.channel, target.rank, kOperationTag, static_cast<double>(message->size()), message->data()));
  epoch.payloads.push_back(std::move(message));
  epoch.types.push_back(target.type);
  ++epoch.operations_to[target.rank];
}

// The target's side: applies a put or an accumulate to its memory.
void apply(Runtime& runtime, const WindowPart& part, const OperationHeader& header, const std::byte* data)
{
  void* target = static_cast<char*>(part.base) + header.disp * part.disp_unit;
  const auto count = static_cast<size_t>(header.count);
  if (header.kind == RmaKind::Put || header.op == MPI_REPLACE) {
    header.type->unpack(data, count, target);
    return;
  }
  std::vector<std::byte> current(header.type->packed_size(count));
  header.type->pack(target, count, current.data());
  runtime.operations().find(header.op)->apply_to_packed(data, current.data(), count, *header.type);
  header.type->unpack(current.data(), count, target);
}

// The target's side of a fence: receives the `incoming` operations aimed at it, applies them, and answers the gets
// (their replies are added to `replies`, with the buffers they send from).
void serve(Runtime& runtime, const WindowAccess& window, int incoming, std::vector<mpi::RequestPtr>& replies,
           std::vector<std::vector<std::byte>>& reply_data)
{
  mpi::Rank& rank = runtime.rank();
  const mpi::Communicator& channel = *window.channel;
  reply_data.reserve(static_cast<size_t>(incoming));
  for (int i = 0; i < incoming; ++i) {
    const mpi::Status probed = rank.wait_for_message(channel, mpi::kAnySource, kOperationTag);
    std::vector<std::byte> message(static_cast<size_t>(probed.bytes));
    rank.recv(channel, probed.source, kOperationTag, probed.bytes, message.data());
    OperationHeader header;
    std::memcpy(&header, message.data(), sizeof header);
    if (header.kind != RmaKind::Get) {
      apply(runtime, *window.part, header, message.data() + sizeof header);
      continue;
    }
    const void* source = static_cast<const char*>(window.part->base) + header.disp * window.part->disp_unit;
    std::vector<std::byte>& reply = reply_data.emplace_back(header.type->packed_size(header.count));
    header.type->pack(source, static_cast<size_t>(header.count), reply.data());
    replies.push_back(rank.isend(channel, probed.source, kReplyTag, static_cast<double>(reply.size()), reply.data()));
  }
}

// Completes the epoch the fence closes, on every member (collective over the hidden communicator).
void complete_epoch(Runtime& runtime, const WindowAccess& window)
{
  RmaEpoch& epoch = window.part->epoch;
  std::vector<int> operations_to(static_cast<size_t>(window.channel->size()), 0);
  for (const auto& [target, count] : epoch.operations_to)
    operations_to[static_cast<size_t>(target)] = count;
  int incoming = 0;
  run_reduce_scatter_block(runtime, *window.channel, operations_to.data(), &incoming, 1, MPI_INT, MPI_SUM);
  std::vector<mpi::RequestPtr> replies;
  std::vector<std::vector<std::byte>> reply_data;
  serve(runtime, window, incoming, replies, reply_data);
  runtime.rank().waitall(epoch.requests);
  runtime.rank().waitall(replies);
  // No member may start the next epoch's operations while another still serves this one's: their messages would
  // be taken for this epoch's.
  run_barrier(runtime, *window.channel);
  epoch.clear();
}

} // namespace

void issue_update(Runtime& runtime, const WindowAccess& window, RmaKind kind, MPI_Op op, const RmaOrigin& origin,
                  const RmaTarget& target)
{
  const OperationHeader header{kind, op, target.disp, target.count, target.type.get()};
  issue(runtime.rank(), window, target, header, &origin);
}

void issue_get(Runtime& runtime, const WindowAccess& window, void* origin_buffer, int origin_count,
               const mpi::DatatypePtr& origin_type, const RmaTarget& target)
{
  // The reply's receive is posted first: the target answers in its fence, whenever that comes.
  window.part->epoch.requests.push_back(runtime.rank().irecv(*window.channel, target.rank, kReplyTag, origin_buffer,
                                                             static_cast<size_t>(origin_count), origin_type));
  const OperationHeader header{RmaKind::Get, MPI_OP_NULL, target.disp, target.count, target.type.get()};
  issue(runtime.rank(), window, target, header, nullptr);
}

void fence(Runtime& runtime, const WindowAccess& window, int assert)
{
  if ((assert& MPI_MODE_NOPRECEDE) == 0)
    complete_epoch(runtime, window);
  window.part->epoch_open = (assert& MPI_MODE_NOSUCCEED) == 0;
}

} // namespace mpisim::online
