// Activities: things that take simulated time (a computation, a network flow, a sleep, an MPI request).
//
// An activity is Pending until something completes it; completing it runs its on_complete() hook, then makes every
// waiting actor ready again. Activities are shared handles (std::shared_ptr): the model that drives one keeps a
// reference while it runs, and so does whoever waits for it.
#pragma once

#include "kernel/CacheLines.hpp"
#include "kernel/EventQueue.hpp"
#include "kernel/Time.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::kernel {

class Actor;
class Engine;
class Activity;

// Told when an activity completes, before its waiters are woken. One observer per activity: the MPI layer uses it to
// chain a message's transfer to its requests without allocating a callback per message.
class ActivityObserver {
public:
  virtual void activity_done(Activity& activity) = 0;

protected:
  ~ActivityObserver() = default;
};

// The actors waiting for an activity, in the order they started waiting. Most activities have one waiter at most: it
// is kept inline, so that waiting allocates nothing.
class WaiterList {
public:
  void add(Actor* actor)
  {
    if (first_ == nullptr && (more_ == nullptr || more_->empty()))
      first_ = actor;
    else {
      if (more_ == nullptr)
        more_ = std::make_unique<std::vector<Actor*>>();
      more_->push_back(actor);
    }
  }
  // Every registration of `actor`, the others keeping their order.
  void remove(const Actor* actor);
  // Empties the list; `visit` sees the waiters in order.
  template <class Visit> void take_all(Visit&& visit)
  {
    Actor* first = std::exchange(first_, nullptr);
    std::unique_ptr<std::vector<Actor*>> more = std::move(more_);
    if (first != nullptr)
      visit(*first);
    if (more != nullptr)
      for (Actor* actor : *more)
        visit(*actor);
  }

private:
  Actor* first_ = nullptr; // the earliest waiter, unless it left (then null, and more_ holds the rest)
  // The others, in order: behind a pointer, made by the second waiter (every request, message and timer in flight
  // has a list; a vector inline would cost 16 bytes more each).
  std::unique_ptr<std::vector<Actor*>> more_;
};

class Activity : public std::enable_shared_from_this<Activity> {
public:
  enum class State : uint8_t { Pending, Done };

  virtual ~Activity() = default;
  Activity() = default;
  Activity(const Activity&) = delete;
  Activity& operator=(const Activity&) = delete;

  State state() const { return state_; }
  bool done() const { return state_ == State::Done; }
  // Asks the processor to load what done() reads. Only loads.
  void prefetch_state() const { __builtin_prefetch(&state_); }
  SimTime finish_date() const { return finish_date_; }

  // What this activity is, for deadlock reports ("receive from rank 3, tag 7").
  virtual std::string describe() const = 0;

  // Marks the activity done at the engine's current date, runs on_complete(), tells the observer, wakes the waiters.
  void complete();

  void set_observer(ActivityObserver* observer) { observer_ = observer; }
  bool observed() const { return observer_ != nullptr; }
  // Who will be told (null: none, or told already): what a model may ask the processor to load ahead of complete().
  ActivityObserver* observer() const { return observer_; }
  // Asks the processor to load the observer's first `lines` cache lines, which complete() is about to read (a
  // message that has gone cold since it was sent). Only loads.
  void prefetch_observer(size_t lines) const
  {
    if (observer_ != nullptr)
      prefetch_lines(observer_, lines);
  }

private:
  friend class Engine;
  virtual void on_complete() {}

  State state_ = State::Pending;
  SimTime finish_date_ = kNever;
  ActivityObserver* observer_ = nullptr;
  WaiterList waiters_;
};

using ActivityPtr = std::shared_ptr<Activity>;

// What a timer is, for deadlock reports: a fixed text, or a text a function writes from a subject and two ids (hosts,
// ranks) only when a report asks. Timers started per message would otherwise each build a string nobody reads.
class TimerDescription {
public:
  using Writer = std::string (*)(const void* subject, uint32_t first, uint32_t second);
  // `text` lives as long as the program: a literal, which converts implicitly.
  TimerDescription(const char* text) : subject_(text) {}
  TimerDescription(Writer writer, const void* subject, uint32_t first, uint32_t second)
      : writer_(writer), subject_(subject), first_(first), second_(second)
  {
  }
  std::string text() const
  {
    return writer_ != nullptr ? writer_(subject_, first_, second_) : std::string(static_cast<const char*>(subject_));
  }

private:
  Writer writer_ = nullptr;
  const void* subject_; // the fixed text when there is no writer
  uint32_t first_ = 0;
  uint32_t second_ = 0;
};

// An activity completed by a timer: sleeps, and fixed-duration delays of analytical models. Create it with
// Engine::start_timer(); it keeps itself alive until it fires.
class TimerActivity : public Activity, private Event {
public:
  explicit TimerActivity(TimerDescription what) : what_(what) {}
  std::string describe() const override { return what_.text(); }

private:
  friend class Engine;
  void fire() override;
  void discard() override { keep_alive_.reset(); }

  TimerDescription what_;
  std::shared_ptr<TimerActivity> keep_alive_;
};

} // namespace mpisim::kernel
