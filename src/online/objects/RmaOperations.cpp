#include "online/objects/RmaOperations.hpp"

#include "online/objects/Collectives.hpp"
#include "online/runtime/Runtime.hpp"

#include "kernel/Activity.hpp"
#include "kernel/Engine.hpp"
#include "kernel/MemoryContexts.hpp"
#include "mpi/Rank.hpp"
#include "mpi/ReduceOp.hpp"

#include <cstring>
#include <functional>
#include <limits>

namespace mpisim::online {

namespace {

constexpr int kPostTag = 1;       // MPI_Win_post -> MPI_Win_start
constexpr int kCompleteTag = 2;   // MPI_Win_complete -> MPI_Win_wait
constexpr int kFirstDataTag = 16; // the transfers of operations: one tag each

// The tag of a new transfer, unique in the window: its two ends, posted by the origin, match each other only (a
// send posted after a sleep of its overhead could otherwise meet another transfer's receive between the same ranks).
int data_tag(const WindowAccess& window)
{
  int& next = window.window->next_tag;
  if (next < kFirstDataTag || next == std::numeric_limits<int>::max())
    next = kFirstDataTag;
  return next++;
}

const mpi::DatatypePtr& bytes_type()
{
  static const mpi::DatatypePtr type = mpi::Datatype::predefined(mpi::Element::Byte);
  return type;
}

mpi::Rank& rank_of(Runtime& runtime, const WindowAccess& window, int comm_rank)
{
  return runtime.world().rank(window.channel->world_rank(comm_rank));
}

WindowPart& part_of(const WindowAccess& window, int comm_rank)
{
  return window.window->parts[static_cast<size_t>(comm_rank)];
}

// What runs at a target when an operation's data arrives there (the arrival of the target's end of the transfer).
class ArrivalAction : public kernel::ActivityObserver {
public:
  explicit ArrivalAction(std::function<void()> action) : action_(std::move(action)) {}
  void activity_done(kernel::Activity&) override { action_(); }

private:
  std::function<void()> action_;
};

enum class Direction { ToTarget, ToOrigin };

// `end` joins `member`'s list of pending ends. Ends long complete are dropped as new ones come (a member nobody
// flushes would otherwise keep them all).
void note_pending(WindowPart& member, int peer, const mpi::RequestPtr& end)
{
  constexpr size_t kPruneAbove = 64;
  if (member.pending.size() > kPruneAbove)
    std::erase_if(member.pending, [](const PendingEnd& pending) { return pending.end->done(); });
  member.pending.push_back(PendingEnd{peer, end});
}

// The receiving end of a new transfer between the calling rank and `transfer.peer` joins its member's list: the
// target's for a put (always), the origin's for a get (unless the caller keeps it as a request). A sending end never
// does: SMPI sends RMA data detached, and waiting for a detached send returns at once.
void note_transfer(const WindowAccess& window, const RmaTransfer& transfer, Direction direction, OriginEnd listing)
{
  if (direction == Direction::ToTarget)
    note_pending(part_of(window, transfer.peer), window.local_rank, transfer.target_end);
  else if (listing == OriginEnd::Listed)
    note_pending(*window.part, transfer.peer, transfer.origin_end);
}

// A transfer of `origin` to the target's memory `destination` (count elements of `type`), started by the calling
// rank: the target's end (a receive on the target's behalf), then the origin's (a send that never waits for its
// receive, as SMPI's RMA sends).
RmaTransfer send_to_target(Runtime& runtime, const WindowAccess& window, int target, const RmaOrigin& origin,
                           void* destination, int count, const mpi::DatatypePtr& type, OriginEnd listing)
{
  RmaTransfer transfer{target, nullptr, nullptr, nullptr};
  const int tag = data_tag(window);
  transfer.target_end =
      rank_of(runtime, window, target)
          .irecv(*window.channel, window.local_rank, tag, destination, static_cast<size_t>(count), type);
  transfer.origin_end = runtime.rank().isend(*window.channel, target, tag, origin.address,
                                             static_cast<size_t>(origin.count), origin.type, mpi::SendMode::Buffered);
  note_transfer(window, transfer, Direction::ToTarget, listing);
  return transfer;
}

// A transfer of the target's memory `source` to the origin's buffer `destination`, started by the calling rank.
RmaTransfer fetch_from_target(Runtime& runtime, const WindowAccess& window, int target, const void* source,
                              int source_count, const mpi::DatatypePtr& source_type, const RmaOrigin& destination,
                              OriginEnd listing)
{
  RmaTransfer transfer{target, nullptr, nullptr, nullptr};
  const int tag = data_tag(window);
  transfer.origin_end = runtime.rank().irecv(*window.channel, target, tag, const_cast<void*>(destination.address),
                                             static_cast<size_t>(destination.count), destination.type);
  // Read now, with the target's globals in place (swap privatization: the window may be a global of the program).
  std::vector<std::byte> data(source_type->packed_size(static_cast<size_t>(source_count)));
  {
    const int target_world = window.channel->world_rank(target);
    kernel::MemoryContextScope target_memory(runtime.world().engine(), target_world);
    source_type->pack(source, static_cast<size_t>(source_count), data.data());
  }
  transfer.target_end = rank_of(runtime, window, target)
                            .isend(*window.channel, window.local_rank, tag, data.data(), data.size(), bytes_type(),
                                   mpi::SendMode::Buffered); // copied: never a rendezvous
  note_transfer(window, transfer, Direction::ToOrigin, listing);
  return transfer;
}

void wait_transfer(Runtime& runtime, const RmaTransfer& transfer)
{
  const mpi::RequestPtr ends[] = {transfer.origin_end, transfer.target_end};
  runtime.rank().waitall(ends);
}

// `op` on `count` elements of `type` in place at `target`, with `packed` data of the origin.
void combine(Runtime& runtime, MPI_Op op, const std::byte* packed, void* target, int count, const mpi::Datatype& type)
{
  if (op == MPI_NO_OP)
    return;
  const auto elements = static_cast<size_t>(count);
  if (op == MPI_REPLACE) {
    type.unpack(packed, elements, target);
    return;
  }
  std::vector<std::byte> current(type.packed_size(elements));
  type.pack(target, elements, current.data());
  runtime.operations().find(op)->apply_to_packed(packed, current.data(), elements, type);
  type.unpack(current.data(), elements, target);
}

// Waits (blocking the calling rank) until `type` is granted on `lock`.
void acquire(Runtime& runtime, const WindowAccess& window, PartLock& lock, int type)
{
  if (lock.try_take(type))
    return;
  auto grant = std::make_shared<mpi::Request>(mpi::RequestKind::Generalized, runtime.current_rank(), *window.channel,
                                              window.local_rank, 0, 0);
  lock.wait(type, grant);
  runtime.rank().wait(*grant);
}

// Wakes the requests the release grants, in arrival order.
void release(PartLock& lock, int type)
{
  for (const mpi::RequestPtr& grant : lock.release(type))
    grant->complete();
}

// A fetching atomic (get_accumulate, compare_and_swap) on `target`: the target's atomic lock is held from the call to
// the arrival of its result, as SMPI's atomic mutex. `arrive` runs at the target when the origin's data arrives and
// leaves there the old data to send back (`old`); the reply goes to `result`.
void fetching_atomic(Runtime& runtime, const WindowAccess& window, int target, const RmaOrigin& sent,
                     const RmaOrigin& result, std::vector<std::byte>& staging, std::vector<std::byte>& old,
                     std::function<void()> arrive)
{
  WindowPart& target_part = part_of(window, target);
  acquire(runtime, window, target_part.atomic, MPI_LOCK_EXCLUSIVE);
  if (target == window.local_rank) { // SMPI: a local copy
    arrive();
  } else {
    auto action = std::make_shared<ArrivalAction>(std::move(arrive));
    RmaTransfer request = send_to_target(runtime, window, target, sent, staging.data(),
                                         static_cast<int>(staging.size()), bytes_type(), OriginEnd::Returned);
    request.target_end->set_observer(action.get());
    request.keep_alive = action;
    if (request.target_end->done())
      action->activity_done(*request.target_end);
    wait_transfer(runtime, request);
  }
  if (target == window.local_rank) {
    result.type->unpack(old.data(), static_cast<size_t>(result.count), const_cast<void*>(result.address));
  } else {
    const RmaTransfer reply = fetch_from_target(runtime, window, target, old.data(), static_cast<int>(old.size()),
                                                bytes_type(), result, OriginEnd::Returned);
    wait_transfer(runtime, reply);
  }
  release(target_part.atomic, MPI_LOCK_EXCLUSIVE);
}

} // namespace

void* target_address(const WindowPart& target, MPI_Aint disp)
{
  if (target.flavor == MPI_WIN_FLAVOR_DYNAMIC)
    return reinterpret_cast<void*>(disp); // NOLINT(performance-no-int-to-ptr): an address MPI_Get_address gave
  return static_cast<char*>(target.base) + disp * target.disp_unit;
}

mpi::RequestPtr put(Runtime& runtime, const WindowAccess& window, const RmaOrigin& origin, const RmaTarget& target,
                    OriginEnd listing)
{
  void* destination = target_address(part_of(window, target.rank), target.disp);
  if (target.rank == window.local_rank) { // SMPI: a local copy, at once
    std::vector<std::byte> packed(origin.type->packed_size(static_cast<size_t>(origin.count)));
    origin.type->pack(origin.address, static_cast<size_t>(origin.count), packed.data());
    target.type->unpack(packed.data(), static_cast<size_t>(target.count), destination);
    return nullptr;
  }
  RmaTransfer transfer =
      send_to_target(runtime, window, target.rank, origin, destination, target.count, target.type, listing);
  window.part->started.push_back(transfer);
  return transfer.origin_end;
}

mpi::RequestPtr get(Runtime& runtime, const WindowAccess& window, const RmaOrigin& origin, const RmaTarget& target,
                    OriginEnd listing)
{
  const void* source = target_address(part_of(window, target.rank), target.disp);
  if (target.rank == window.local_rank) {
    std::vector<std::byte> packed(target.type->packed_size(static_cast<size_t>(target.count)));
    target.type->pack(source, static_cast<size_t>(target.count), packed.data());
    origin.type->unpack(packed.data(), static_cast<size_t>(origin.count), const_cast<void*>(origin.address));
    return nullptr;
  }
  RmaTransfer transfer =
      fetch_from_target(runtime, window, target.rank, source, target.count, target.type, origin, listing);
  window.part->started.push_back(transfer);
  return transfer.origin_end;
}

void accumulate(Runtime& runtime, const WindowAccess& window, const RmaOrigin& origin, const RmaTarget& target,
                MPI_Op op)
{
  void* destination = target_address(part_of(window, target.rank), target.disp);
  auto staging = std::make_shared<std::vector<std::byte>>(origin.type->packed_size(static_cast<size_t>(origin.count)));
  const mpi::DatatypePtr target_type = target.type;
  const int count = target.count;
  auto action = std::make_shared<ArrivalAction>([&runtime, op, staging, destination, count, target_type] {
    combine(runtime, op, staging->data(), destination, count, *target_type);
  });
  RmaTransfer transfer = send_to_target(runtime, window, target.rank, origin, staging->data(),
                                        static_cast<int>(staging->size()), bytes_type(), OriginEnd::Listed);
  transfer.target_end->set_observer(action.get());
  if (transfer.target_end->done()) // arrived already (a message to itself)
    action->activity_done(*transfer.target_end);
  transfer.keep_alive = std::make_shared<std::pair<std::shared_ptr<ArrivalAction>, decltype(staging)>>(action, staging);
  window.part->started.push_back(transfer);
  // SMPI flushes after each accumulate: they reach the target in the order issued.
  flush(runtime, window, target.rank);
}

void get_accumulate(Runtime& runtime, const WindowAccess& window, const RmaOrigin& origin, const RmaOrigin& result,
                    const RmaTarget& target, MPI_Op op)
{
  void* location = target_address(part_of(window, target.rank), target.disp);
  if (op == MPI_NO_OP) { // an atomic read: SMPI's get alone
    get(runtime, window, result, target, OriginEnd::Listed);
    flush(runtime, window, target.rank);
    return;
  }
  std::vector<std::byte> staging(origin.type->packed_size(static_cast<size_t>(origin.count)));
  std::vector<std::byte> old(target.type->packed_size(static_cast<size_t>(target.count)));
  const auto count = static_cast<size_t>(target.count);
  if (target.rank == window.local_rank)
    origin.type->pack(origin.address, static_cast<size_t>(origin.count), staging.data());
  fetching_atomic(runtime, window, target.rank, origin, result, staging, old, [&] {
    target.type->pack(location, count, old.data());
    combine(runtime, op, staging.data(), location, target.count, *target.type);
  });
}

void compare_and_swap(Runtime& runtime, const WindowAccess& window, const void* origin, const void* compare,
                      void* result, const RmaTarget& target)
{
  void* location = target_address(part_of(window, target.rank), target.disp);
  const size_t size = target.type->size();
  // The new value and the compare value travel together.
  std::vector<std::byte> sent(2 * size);
  std::memcpy(sent.data(), origin, size);
  std::memcpy(sent.data() + size, compare, size);
  std::vector<std::byte> staging(2 * size), old(size);
  if (target.rank == window.local_rank)
    staging = sent;
  const RmaOrigin message{sent.data(), static_cast<int>(sent.size()), bytes_type()};
  const RmaOrigin reply{result, 1, target.type};
  fetching_atomic(runtime, window, target.rank, message, reply, staging, old, [&] {
    std::memcpy(old.data(), location, size);
    if (std::memcmp(location, staging.data() + size, size) == 0)
      std::memcpy(location, staging.data(), size);
  });
}

// Completion ---------------------------------------------------------------------------------------------------------

namespace {

// SMPI's wait on a member's list: under the member's mutex, held while waiting, the ends whose peer is `peer` (all of
// them when `peer` is negative or the member itself: every end in a member's list involves the member).
void finish(Runtime& runtime, const WindowAccess& window, int member, int peer)
{
  WindowPart& part = part_of(window, member);
  if (part.pending_guard.try_take(MPI_LOCK_EXCLUSIVE))
    runtime.rank().kernel_calls(); // SMPI's mutex lock, answered at once
  else
    acquire(runtime, window, part.pending_guard, MPI_LOCK_EXCLUSIVE);
  const bool everything = peer < 0 || peer == member;
  std::vector<mpi::RequestPtr> ends;
  std::erase_if(part.pending, [&](const PendingEnd& pending) {
    if (not everything && pending.peer != peer)
      return false;
    ends.push_back(pending.end);
    return true;
  });
  runtime.rank().waitall(ends);
  release(part.pending_guard, MPI_LOCK_EXCLUSIVE);
  runtime.rank().kernel_calls(); // SMPI's mutex unlock
}

// The transfers the calling rank started towards `target` (all when negative) are complete: forget them.
void forget_started(const WindowAccess& window, int target)
{
  std::erase_if(window.part->started, [target](const RmaTransfer& t) { return target < 0 || t.peer == target; });
}

} // namespace

void flush(Runtime& runtime, const WindowAccess& window, int target)
{
  const int self = window.local_rank;
  finish(runtime, window, self, target);
  // One target touches its own list only: lock_all and unlock_all flush member by member, which must stay O(n).
  if (target >= 0) {
    if (target != self)
      finish(runtime, window, target, self);
  } else {
    for (int member = 0; member < window.channel->size(); ++member)
      if (member != self)
        finish(runtime, window, member, self);
  }
  forget_started(window, target);
}

void flush_local(Runtime& runtime, const WindowAccess& window, int target)
{
  finish(runtime, window, window.local_rank, target);
  forget_started(window, target);
}

void fence(Runtime& runtime, const WindowAccess& window, int assert)
{
  if ((assert& MPI_MODE_NOPRECEDE) == 0) { // SMPI: a barrier, the epoch's transfers, a barrier
    run_barrier(runtime, *window.channel);
    flush_local(runtime, window, -1);
  }
  run_barrier(runtime, *window.channel);
  window.part->fence_open = (assert& MPI_MODE_NOSUCCEED) == 0;
}

void lock(Runtime& runtime, const WindowAccess& window, int type, int target)
{
  acquire(runtime, window, part_of(window, target).lock, type);
  window.part->locks_held[target] = type;
  flush(runtime, window, target); // SMPI: usually nothing to wait for
}

void unlock(Runtime& runtime, const WindowAccess& window, int target)
{
  flush(runtime, window, target); // complete before the next holder may look (SMPI releases first)
  release(part_of(window, target).lock, window.part->locks_held.at(target));
  window.part->locks_held.erase(target);
}

void lock_all(Runtime& runtime, const WindowAccess& window)
{
  for (int target = 0; target < window.channel->size(); ++target) { // SMPI: a lock and a flush per member
    acquire(runtime, window, part_of(window, target).lock, MPI_LOCK_SHARED);
    flush(runtime, window, target);
  }
  window.part->locked_all = true;
}

void unlock_all(Runtime& runtime, const WindowAccess& window)
{
  for (int target = 0; target < window.channel->size(); ++target) { // SMPI: member by member
    flush(runtime, window, target);
    release(part_of(window, target).lock, MPI_LOCK_SHARED);
  }
  window.part->locked_all = false;
}

void post(Runtime& runtime, const WindowAccess& window, const std::vector<int>& group)
{
  std::vector<mpi::RequestPtr> posts;
  for (int origin : group) {
    if (origin == window.local_rank)
      continue;
    posts.push_back(runtime.rank().isend(*window.channel, origin, kPostTag, 0.0));
    window.part->post_group.push_back(origin);
  }
  runtime.rank().waitall(posts);
  window.part->post_open = true;
}

void start(Runtime& runtime, const WindowAccess& window, const std::vector<int>& group)
{
  std::vector<mpi::RequestPtr> posts;
  for (int target : group)
    if (target != window.local_rank)
      posts.push_back(runtime.rank().irecv(*window.channel, target, kPostTag, 0.0));
  runtime.rank().waitall(posts);
  window.part->start_group = group;
  window.part->start_open = true;
}

void complete(Runtime& runtime, const WindowAccess& window)
{
  std::vector<mpi::RequestPtr> completions;
  for (int target : window.part->start_group)
    if (target != window.local_rank)
      completions.push_back(runtime.rank().isend(*window.channel, target, kCompleteTag, 0.0));
  runtime.rank().waitall(completions);
  flush_local(runtime, window, -1);
  window.part->start_open = false;
  window.part->start_group.clear();
}

namespace {

// SMPI posts the receives of the "complete" messages only when the exposure epoch is being closed.
void receive_completions(Runtime& runtime, const WindowAccess& window)
{
  WindowPart& part = *window.part;
  for (int origin : part.post_group)
    part.completions.push_back(runtime.rank().irecv(*window.channel, origin, kCompleteTag, 0.0));
  part.post_group.clear();
}

} // namespace

void wait(Runtime& runtime, const WindowAccess& window)
{
  receive_completions(runtime, window);
  runtime.rank().waitall(window.part->completions);
  window.part->completions.clear();
  flush_local(runtime, window, -1);
  window.part->post_open = false;
}

bool test(Runtime& runtime, const WindowAccess& window)
{
  receive_completions(runtime, window);
  std::vector<mpi::RequestPtr> pending = window.part->completions;
  for (const PendingEnd& end : window.part->pending)
    pending.push_back(end.end);
  if (not runtime.rank().testall(pending))
    return false;
  wait(runtime, window);
  return true;
}

} // namespace mpisim::online
