// The activities of the storage model and how its steps are chained.
//
// An I/O access is a sequence of steps (a request message, a data transfer, a disk access, ...) each of which is an
// activity of some model (a network transfer, a timer). Continuations runs the next step when one completes;
// IoOperation is the activity the caller waits for, completed by the last step.
#pragma once

#include "kernel/Activity.hpp"
#include "kernel/Engine.hpp"

#include <functional>
#include <list>
#include <string>
#include <vector>

namespace mpisim::io {

using kernel::ActivityPtr;

// An activity completed by the storage model itself. Steps may wait for it too (then()), as many as need to: a read
// waiting for data a read-ahead is fetching.
class IoOperation : public kernel::Activity {
public:
  explicit IoOperation(std::string what) : what_(std::move(what)) {}
  std::string describe() const override { return what_; }
  void then(std::function<void()> next) { next_.push_back(std::move(next)); }

private:
  void on_complete() override;
  std::string what_;
  std::vector<std::function<void()>> next_;
};

using IoOperationPtr = std::shared_ptr<IoOperation>;

// Runs a function when an activity completes. Registered as a kernel model only to forget, between rounds, the
// activities whose continuation ran: dropping a reference while the activity is still completing could free it.
class Continuations : public kernel::Model {
public:
  explicit Continuations(kernel::Engine& engine);
  Continuations(const Continuations&) = delete;
  Continuations& operator=(const Continuations&) = delete;

  kernel::Engine& engine() const { return engine_; }

  // Runs `next` when `activity` completes (at once when it is done already). Each activity but an IoOperation takes
  // one continuation: the storage model creates it for that one purpose.
  void after(const ActivityPtr& activity, std::function<void()> next);
  // Runs `next` after `delay` seconds (at once when the delay is zero).
  void after_delay(double delay, const std::string& what, std::function<void()> next);

  void update(kernel::SimTime now) override;

private:
  class Waiter : public kernel::ActivityObserver {
  public:
    Waiter(ActivityPtr activity, std::function<void()> next) : activity_(std::move(activity)), next_(std::move(next)) {}
    void activity_done(kernel::Activity&) override;
    bool ran() const { return !next_; }

  private:
    ActivityPtr activity_;
    std::function<void()> next_;
  };

  kernel::Engine& engine_;
  std::list<Waiter> waiters_;
  size_t ran_ = 0;
};

} // namespace mpisim::io
