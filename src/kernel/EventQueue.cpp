#include "kernel/EventQueue.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <numeric>

namespace mpisim::kernel {

namespace {

// The date's bits, mapped so that unsigned order is the order of the dates: non-negative dates above negative ones
// (their bits with the sign bit set), negative ones in reverse order of their bits (negated); -0 and +0 both map to
// the sign bit alone, as they compare equal.
uint64_t date_bits(SimTime date)
{
  constexpr uint64_t kSignBit = uint64_t{1} << 63;
  assert(date == date); // not NaN
  const auto bits = std::bit_cast<uint64_t>(date);
  return (bits & kSignBit) != 0 ? 0 - bits : bits | kSignBit;
}

} // namespace

EventQueue::Key EventQueue::take_key(SimTime date, int16_t priority)
{
  if (next_sequence_ == kSequenceLimit) [[unlikely]]
    renumber_sequences();
  const auto offset_priority = static_cast<uint64_t>(static_cast<uint16_t>(priority) ^ uint16_t{0x8000});
  return (Key{date_bits(date)} << 64) | (offset_priority << kSequenceBits) | next_sequence_++;
}

inline void EventQueue::rise(size_t hole, Key moving, Event* moving_event)
{
  while (hole > kRootSlot) {
    const size_t above = parent(hole);
    if (not(moving < keys_[above]))
      break;
    place(hole, keys_[above], events_[above]);
    hole = above;
  }
  place(hole, moving, moving_event);
}

inline void EventQueue::sift_up(size_t index)
{
  rise(index, keys_[index], events_[index]);
}

// Reschedules and cancels: the keys are read through a plain pointer and a full node's four children are
// compared without a loop (the last node may have fewer).
void EventQueue::sift_down(size_t index)
{
  const Key moving = keys_[index];
  Event* const moving_event = events_[index];
  const Key* keys = keys_.data();
  const size_t count = keys_.size();
  while (true) {
    const size_t first = first_child(index);
    if (first >= count)
      break;
    const size_t child = earliest_child(keys, first, count);
    const Key earliest = keys[child];
    if (not(earliest < moving))
      break;
    place(index, earliest, events_[child]);
    index = child;
  }
  place(index, moving, moving_event);
}

void EventQueue::fill_vacant_root()
{
  root_vacant_ = false;
  const Key last = keys_.back();
  Event* const last_event = events_.back();
  keys_.pop_back();
  events_.pop_back();
  if (keys_.size() == kRootSlot)
    return; // the popped event was the last
  sift_into_root(last, last_event);
}

// Floyd's bottom-up sift: the hole left at the root goes down to a leaf by the earliest child at each level, without
// comparing with the entry that fills it, which then rises from that leaf to its place. An entry that fills the root
// is nearly always one of the latest (the last of the heap; a lane's next end, later than its other lanes' first), so
// it rises a level or none: three comparisons per level instead of four. The heap's shape may differ from a sift
// down's; the order is the keys', which are unique, so the events fire in the same order.
void EventQueue::sift_into_root(Key moving, Event* moving_event)
{
  Key* const keys = keys_.data();
  Event** const events = events_.data();
  const size_t count = keys_.size(); // at least kRootSlot + 1: the root's slot is there
  // A node is full while its first child is at most `last_full` (one bound, set once, rather than a sum per level).
  const size_t last_full = count - kArity;
  size_t hole = kRootSlot;
  size_t first = first_child(hole);
  while (first <= last_full) {
    const size_t child = earliest_of_four(keys, first);
    place(hole, keys[child], events[child]);
    hole = child;
    first = first_child(hole);
  }
  if (first < count) { // the last node, with fewer children
    const size_t child = earliest_child(keys, first, count);
    place(hole, keys[child], events[child]);
    hole = child;
  }
  rise(hole, moving, moving_event); // nearly always a level or none
}

void EventQueue::schedule(Event& event, SimTime date, int16_t priority)
{
  event.date_ = date;
  const Key key = take_key(date, priority);
  if (root_vacant_ && not event.scheduled()) {
    root_vacant_ = false;
    sift_into_root(key, &event);
    return;
  }
  settle_root();
  if (event.scheduled()) {
    const size_t index = event.heap_index_;
    keys_[index] = key;
    sift_up(index);
    sift_down(event.heap_index_);
    return;
  }
  keys_.push_back(key);
  events_.push_back(&event);
  event.heap_index_ = keys_.size() - 1;
  sift_up(event.heap_index_);
}

void EventQueue::cancel(Event& event)
{
  if (not event.scheduled())
    return;
  settle_root();
  const size_t index = event.heap_index_;
  const Key last = keys_.back();
  Event* const last_event = events_.back();
  keys_.pop_back();
  events_.pop_back();
  event.heap_index_ = Event::kNotScheduled;
  if (last_event == &event)
    return;
  place(index, last, last_event);
  sift_up(index);
  sift_down(last_event->heap_index_);
}

Event* EventQueue::pop()
{
  settle_root();
  assert(not empty());
  Event* top = events_[kRootSlot];
  top->heap_index_ = Event::kNotScheduled;
  root_vacant_ = true;
  return top;
}

void EventQueue::renumber_sequences()
{
  settle_root();
  std::vector<size_t> in_order(keys_.size() - kRootSlot);
  std::iota(in_order.begin(), in_order.end(), kRootSlot);
  std::sort(in_order.begin(), in_order.end(), [&](size_t a, size_t b) { return keys_[a] < keys_[b]; });
  constexpr Key kSequenceMask = kSequenceLimit - 1;
  uint64_t sequence = 0;
  for (const size_t index : in_order)
    keys_[index] = (keys_[index] & ~kSequenceMask) | sequence++;
  next_sequence_ = sequence;
}

} // namespace mpisim::kernel
