// A readers-writer lock granting requests in arrival order (docs/specifications/one-sided.md, passive target): a
// shared request is granted when no exclusive lock is held and no earlier request waits; an exclusive one when no
// lock at all is held and no earlier request waits. A refused request leaves a `Waiter` (what wakes the requester: a
// simulator activity in MPI_Win_lock, a plain id in the unit tests), handed back when a release grants it.
#pragma once

#include <mpi.h>

#include <deque>
#include <vector>

namespace mpisim::online {

template <class Waiter> class ArrivalOrderLock {
public:
  // Takes `type` (MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE) and returns true when it can be granted now; false, and
  // nothing taken, otherwise (the caller then queues with wait()).
  bool try_take(int type)
  {
    if (not waiting_.empty() || not compatible(type))
      return false;
    take(type);
    return true;
  }
  // Queues a refused request, granted by a later release().
  void wait(int type, Waiter waiter) { waiting_.push_back(Queued{type, std::move(waiter)}); }
  // Gives back one hold of `type`; returns the waiters now granted, in arrival order (the first request still
  // incompatible with the holders stops the others).
  std::vector<Waiter> release(int type)
  {
    if (type == MPI_LOCK_SHARED)
      --shared_holders_;
    else
      exclusive_held_ = false;
    std::vector<Waiter> granted;
    while (not waiting_.empty() && compatible(waiting_.front().type)) {
      take(waiting_.front().type);
      granted.push_back(std::move(waiting_.front().waiter));
      waiting_.pop_front();
    }
    return granted;
  }

  int shared_holders() const { return shared_holders_; }
  bool exclusive_held() const { return exclusive_held_; }
  size_t waiting() const { return waiting_.size(); }

private:
  struct Queued {
    int type;
    Waiter waiter;
  };
  bool compatible(int type) const { return not exclusive_held_ && (type == MPI_LOCK_SHARED || shared_holders_ == 0); }
  void take(int type)
  {
    if (type == MPI_LOCK_SHARED)
      ++shared_holders_;
    else
      exclusive_held_ = true;
  }

  int shared_holders_ = 0;
  bool exclusive_held_ = false;
  std::deque<Queued> waiting_;
};

} // namespace mpisim::online
