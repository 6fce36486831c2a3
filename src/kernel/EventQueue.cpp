#include "kernel/EventQueue.hpp"

#include <cassert>

namespace mpisim::kernel {

bool EventQueue::before(const Event* a, const Event* b)
{
  if (a->date_ != b->date_)
    return a->date_ < b->date_;
  if (a->priority_ != b->priority_)
    return a->priority_ < b->priority_;
  return a->sequence_ < b->sequence_;
}

void EventQueue::place(size_t index, Event* event)
{
  heap_[index] = event;
  event->heap_index_ = index;
}

void EventQueue::sift_up(size_t index)
{
  Event* moving = heap_[index];
  while (index > 0) {
    size_t parent = (index - 1) / 2;
    if (not before(moving, heap_[parent]))
      break;
    place(index, heap_[parent]);
    index = parent;
  }
  place(index, moving);
}

void EventQueue::sift_down(size_t index)
{
  Event* moving = heap_[index];
  const size_t count = heap_.size();
  while (true) {
    size_t child = 2 * index + 1;
    if (child >= count)
      break;
    if (child + 1 < count && before(heap_[child + 1], heap_[child]))
      ++child;
    if (not before(heap_[child], moving))
      break;
    place(index, heap_[child]);
    index = child;
  }
  place(index, moving);
}

void EventQueue::schedule(Event& event, SimTime date, int priority)
{
  event.date_ = date;
  event.priority_ = priority;
  event.sequence_ = next_sequence_++;
  if (event.scheduled()) {
    sift_up(event.heap_index_);
    sift_down(event.heap_index_);
    return;
  }
  heap_.push_back(&event);
  event.heap_index_ = heap_.size() - 1;
  sift_up(event.heap_index_);
}

void EventQueue::cancel(Event& event)
{
  if (not event.scheduled())
    return;
  size_t index = event.heap_index_;
  Event* last = heap_.back();
  heap_.pop_back();
  event.heap_index_ = Event::kNotScheduled;
  if (last == &event)
    return;
  place(index, last);
  sift_up(index);
  sift_down(last->heap_index_);
}

Event* EventQueue::pop()
{
  assert(not heap_.empty());
  Event* top = heap_.front();
  cancel(*top);
  return top;
}

} // namespace mpisim::kernel
