// The future event list: an indexed 4-ary heap of intrusive events.
//
// Events are ordered by (date, priority, sequence number); the sequence number is taken at each schedule() call, so
// two events with the same date and priority fire in the order they were scheduled. Events are intrusive (each knows
// its heap slot) so rescheduling a flow whose rate changed costs O(log n) and no allocation.
//
// The ordering key of an event is one 128-bit unsigned integer kept in the heap's own array, so comparisons touch only
// that array, not the scattered events, and each is one integer comparison rather than a chain of three with their
// branches: the high half is the date's bits mapped so that unsigned order is the order of the dates (-0 taken as +0,
// as the comparison of doubles does; dates are never NaN), the low half the priority (16 bits, offset to be unsigned)
// then the sequence number (48 bits; renumbered in order when they run out, which keeps every comparison's outcome).
// The events' pointers lie in a second array of the same indexes, read only when an entry moves. Many events share a
// date (a uniform run's messages end in clusters): their order is decided by the low half in the same comparison.
//
// Four children per node rather than two: the heap is half as deep, and a node's children lie side by side, so a pop
// from a queue of a few hundred thousand events (every message in flight under a model timed by arithmetic) misses
// the cache about half as often. The keys' array starts on a cache line and three unused slots precede the root, so
// that the four children's keys of a node (4 x 16 bytes) fill exactly one line. The order is the total order of the
// keys, whatever the heap's shape or where it lies.
//
// A pop leaves the root vacant, and the next schedule() fills it: the popped event usually schedules its successor at
// once (a lane of dated ends, a flow's next completion), so the two cost one sift down from the root instead of a sift
// down of the last entry and a sift up of the new one. Anything else that reads or changes the queue first fills the
// root with the last entry, as a pop would have. Neither changes the keys, so neither changes the order. The entry
// that fills the root is nearly always among the latest (a 16 384-rank xsim replay: the successor stays at the root 7
// times in 405 859), so it sinks bottom-up (sift_into_root): the hole goes down to a leaf, then the entry rises.
#pragma once

#include "kernel/CacheLines.hpp"
#include "kernel/Time.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace mpisim::kernel {

// Who ends an event, in the order SimGrid 3.32 hands over the ends of one date
// (docs/specifications/same-date-order.md): its timers first, then its resource models in their order of creation under
// smpirun, the hosts' CPUs (computations, sleeps) before the network.
enum class EventSource : uint8_t { Timers, Hosts, Network };
inline constexpr size_t kEventSources = 3;

class Event {
public:
  virtual ~Event() = default;
  virtual void fire() = 0;
  // The simulation ended before the event's date: release what it holds (self-owning events free themselves).
  virtual void discard() {}

  bool scheduled() const { return heap_index_ != kNotScheduled; }
  SimTime date() const { return date_; }
  // Set before the event is first scheduled: the engine keeps one queue per source.
  EventSource source() const { return source_; }
  void set_source(EventSource source) { source_ = source; }

private:
  friend class EventQueue;
  static constexpr size_t kNotScheduled = static_cast<size_t>(-1);
  SimTime date_ = 0;
  EventSource source_ = EventSource::Timers;
  size_t heap_index_ = kNotScheduled;
};

// Storage that starts on a cache line (operator new gives 16 bytes of alignment).
template <class T> class CacheLineAllocator {
public:
  using value_type = T;
  static constexpr std::align_val_t kLine{kCacheLineBytes};
  CacheLineAllocator() = default;
  template <class U> CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}
  T* allocate(size_t count) { return static_cast<T*>(::operator new(count * sizeof(T), kLine)); }
  void deallocate(T* pointer, size_t) noexcept { ::operator delete(pointer, kLine); }
  template <class U> bool operator==(const CacheLineAllocator<U>&) const noexcept { return true; }
};

class EventQueue {
public:
  // The first sequence number (tests start near the end of their range).
  explicit EventQueue(uint64_t first_sequence = 0)
      : keys_(kRootSlot), events_(kRootSlot), next_sequence_(first_sequence)
  {
  }
  // (Re)schedule: an already scheduled event moves to the new date and takes a new sequence number.
  void schedule(Event& event, SimTime date, int16_t priority = 0);
  void cancel(Event& event);
  bool empty() const { return size() == 0; }
  size_t size() const { return keys_.size() - kRootSlot - (root_vacant_ ? 1 : 0); }
  SimTime next_date()
  {
    settle_root();
    return empty() ? kNever : events_[kRootSlot]->date_; // the date as given, bit for bit
  }
  // Whether the next event's date is within kTimePrecision after `round_date` (an engine's round fires it).
  bool next_within_precision_of(SimTime round_date)
  {
    settle_root();
    return keys_.size() > kRootSlot && events_[kRootSlot]->date_ - round_date < kTimePrecision;
  }
  Event* pop();
  // Asks the processor to load the event that would be popped next (while the one popped now fires): with the root
  // vacant, the earliest of the root's children.
  void prefetch_next() const
  {
    if (empty())
      return;
    __builtin_prefetch(events_[root_vacant_ ? earliest_child_of_root() : kRootSlot]);
  }

private:
  __extension__ using Key = unsigned __int128; // (date, priority, sequence), compared as one integer
  static constexpr unsigned kSequenceBits = 48;
  static constexpr uint64_t kSequenceLimit = uint64_t{1} << kSequenceBits;
  // The earliest child of the node whose children start at `first` (it has at least one; the last node may have
  // fewer than four).
  static size_t earliest_child(const Key* keys, size_t first, size_t count)
  {
    if (first + kArity <= count)
      return earliest_of_four(keys, first);
    size_t child = first;
    for (size_t other = first + 1; other < count; ++other)
      if (keys[other] < keys[child])
        child = other;
    return child;
  }
  // The root's earliest child (the next event while the root is vacant; the root has at least one child).
  size_t earliest_child_of_root() const { return earliest_child(keys_.data(), kRootSlot + 1, keys_.size()); }
  // The index of the earliest of the four keys from `first` on, in three comparisons (two pairs, then their winners).
  static size_t earliest_of_four(const Key* keys, size_t first)
  {
    static_assert(kArity == 4);
    const size_t low_pair = first + static_cast<size_t>(keys[first + 1] < keys[first]);
    const size_t high_pair = first + 2 + static_cast<size_t>(keys[first + 3] < keys[first + 2]);
    return keys[high_pair] < keys[low_pair] ? high_pair : low_pair;
  }
  // The key of an event scheduled now at `date` with `priority` (takes a sequence number).
  Key take_key(SimTime date, int16_t priority);
  // The pending events' sequence numbers become 0, 1, ... in their order, which keeps every comparison's outcome.
  void renumber_sequences();
  static constexpr size_t kArity = 4;
  // The array index of the root: the children of the node at index i are at kArity * (i - kRootSlot) + kRootSlot + 1
  // onwards, which is a multiple of kArity.
  static constexpr size_t kRootSlot = kArity - 1;
  static_assert(sizeof(Key) * kArity == kCacheLineBytes, "a node's children's keys fill one cache line");
  // That formula as one multiply and one subtraction, and its inverse.
  static constexpr size_t kChildOffset = kArity * kRootSlot - kRootSlot - 1;
  static constexpr size_t first_child(size_t index) { return kArity * index - kChildOffset; }
  static constexpr size_t parent(size_t index) { return (index + kChildOffset) / kArity; }
  void sift_up(size_t index);
  // The entry `moving` placed at `hole` or above it, its ancestors later than it moved down one level each.
  void rise(size_t hole, Key moving, Event* moving_event);
  void sift_down(size_t index);
  void place(size_t index, Key key, Event* event)
  {
    keys_[index] = key;
    events_[index] = event;
    event->heap_index_ = index;
  }
  // A vacant root takes the last entry, which sifts down (what a pop does).
  void settle_root()
  {
    if (root_vacant_)
      fill_vacant_root();
  }
  void fill_vacant_root();
  // The root's slot, vacant (or about to be), takes this entry and the heap is ordered again.
  void sift_into_root(Key moving, Event* moving_event);

  // The unused slots first, then the heap from kRootSlot: the keys, and the events at the same indexes.
  std::vector<Key, CacheLineAllocator<Key>> keys_;
  std::vector<Event*> events_;
  uint64_t next_sequence_ = 0;
  bool root_vacant_ = false; // kRootSlot holds an event popped already: the next schedule() takes its place
};

} // namespace mpisim::kernel
