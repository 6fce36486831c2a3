#include "kernel/EventQueue.hpp"

#include <algorithm>
#include <cassert>

namespace mpisim::kernel {

// Inline: called at every step of every sift, and a flow's completion is rescheduled at each change of its share.
inline void EventQueue::place(size_t index, const Slot& slot)
{
  heap_[index] = slot;
  slot.event->heap_index_ = index;
}

void EventQueue::sift_up(size_t index)
{
  const Slot moving = heap_[index];
  while (index > kRootSlot) {
    const size_t parent = (index - kRootSlot - 1) / kArity + kRootSlot;
    if (not before(moving, heap_[parent]))
      break;
    place(index, heap_[parent]);
    index = parent;
  }
  place(index, moving);
}

void EventQueue::sift_down(size_t index)
{
  const Slot moving = heap_[index];
  const size_t count = heap_.size();
  while (true) {
    const size_t first = kArity * (index - kRootSlot) + kRootSlot + 1;
    if (first >= count)
      break;
    size_t child = first;
    const size_t last = std::min(first + kArity, count);
    for (size_t other = first + 1; other < last; ++other)
      if (before(heap_[other], heap_[child]))
        child = other;
    if (not before(heap_[child], moving))
      break;
    place(index, heap_[child]);
    index = child;
  }
  place(index, moving);
}

void EventQueue::settle_root()
{
  if (not root_vacant_)
    return;
  root_vacant_ = false;
  const Slot last = heap_.back();
  heap_.pop_back();
  if (heap_.size() == kRootSlot)
    return; // the popped event was the last
  heap_[kRootSlot] = last;
  sift_down(kRootSlot);
}

void EventQueue::schedule(Event& event, SimTime date, int priority)
{
  event.date_ = date;
  const Slot slot{date, priority, next_sequence_++, &event};
  if (root_vacant_ && not event.scheduled()) {
    root_vacant_ = false;
    heap_[kRootSlot] = slot;
    sift_down(kRootSlot);
    return;
  }
  settle_root();
  if (event.scheduled()) {
    const size_t index = event.heap_index_;
    heap_[index] = slot;
    sift_up(index);
    sift_down(event.heap_index_);
    return;
  }
  heap_.push_back(slot);
  event.heap_index_ = heap_.size() - 1;
  sift_up(event.heap_index_);
}

void EventQueue::cancel(Event& event)
{
  if (not event.scheduled())
    return;
  settle_root();
  const size_t index = event.heap_index_;
  const Slot last = heap_.back();
  heap_.pop_back();
  event.heap_index_ = Event::kNotScheduled;
  if (last.event == &event)
    return;
  place(index, last);
  sift_up(index);
  sift_down(last.event->heap_index_);
}

Event* EventQueue::pop()
{
  settle_root();
  assert(not empty());
  Event* top = heap_[kRootSlot].event;
  top->heap_index_ = Event::kNotScheduled;
  root_vacant_ = true;
  return top;
}

} // namespace mpisim::kernel
