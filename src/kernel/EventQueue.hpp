// The future event list: an indexed 4-ary heap of intrusive events.
//
// Events are ordered by (date, priority, sequence number); the sequence number is taken at each schedule() call, so
// two events with the same date and priority fire in the order they were scheduled. Events are intrusive (each knows
// its heap slot) so rescheduling a flow whose rate changed costs O(log n) and no allocation. The ordering keys are
// kept in the heap array itself, so comparisons touch only that array, not the scattered events. Four children per
// node rather than two: the heap is half as deep, and a node's children lie side by side (two cache lines), so a pop
// from a queue of a few hundred thousand events (every message in flight under a model timed by arithmetic) misses
// the cache about half as often. The order is the total order of the keys, whatever the heap's shape.
#pragma once

#include "kernel/Time.hpp"

#include <cstddef>
#include <cstdint>
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

class EventQueue {
public:
  // (Re)schedule: an already scheduled event moves to the new date and takes a new sequence number.
  void schedule(Event& event, SimTime date, int priority = 0);
  void cancel(Event& event);
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  SimTime next_date() const { return heap_.empty() ? kNever : heap_.front().date; }
  Event* pop();

private:
  struct Slot {
    SimTime date;
    int priority;
    uint64_t sequence;
    Event* event;
  };
  static bool before(const Slot& a, const Slot& b)
  {
    if (a.date != b.date)
      return a.date < b.date;
    if (a.priority != b.priority)
      return a.priority < b.priority;
    return a.sequence < b.sequence;
  }
  static constexpr size_t kArity = 4;
  void sift_up(size_t index);
  void sift_down(size_t index);
  void place(size_t index, const Slot& slot);

  std::vector<Slot> heap_;
  uint64_t next_sequence_ = 0;
};

} // namespace mpisim::kernel
