// The discrete-event engine: the clock, the future event list, the actors and the models that drive activities.
//
// One scheduling round: run every ready actor (FIFO, in the order they became ready) until each blocks or ends; let
// every model bring its activities up to date (one sharing solve per round, however many flows started); then jump
// the clock to the next event and fire every event within kTimePrecision of it, then tell the models that the round's
// events have fired. The events of a round fire source by source (timers, then hosts, then network: EventSource),
// each source's in (date, priority, sequence) order, which is the order SimGrid 3.32 resumes actors whose activities
// end at the same date (docs/specifications/same-date-order.md). Nothing in a round depends on pointer values or hash
// order, so a run is reproducible bit for bit; the fingerprint() hashes the sequence of fired dates and resumed actors
// so tests can check that.
#pragma once

#include "kernel/Activity.hpp"
#include "kernel/Actor.hpp"
#include "kernel/EventQueue.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace mpisim::kernel {

// Something that owns activities whose end dates depend on shared state (CPU, network). update() is called once per
// scheduling round, before the clock moves, to recompute shares and reschedule completions.
class Model {
public:
  virtual ~Model() = default;
  virtual void update(SimTime now) = 0;
  // Every event of the round at `now` has fired; the actors they woke have not run yet.
  virtual void events_fired(SimTime now) { (void)now; }
  // The last actor finished at `now`: the run ends without another update(). Models whose state is observed use it
  // to report the changes of the final round (a link going idle).
  virtual void run_ended(SimTime now) { (void)now; }
};

class Engine {
public:
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // The engine of the simulation running on this thread.
  static Engine& current();

  SimTime now() const { return now_; }

  // Where the actors' stacks come from (kernel/Stacks.hpp), set before the first spawn; by default guarded mappings
  // of 256 KiB. set_stack_size(bytes): guarded mappings of that size.
  void set_stack_provider(std::unique_ptr<StackProvider> stacks);
  void set_stack_size(size_t bytes) { set_stack_provider(std::make_unique<GuardedStacks>(bytes)); }
  const StackProvider& stacks() const { return *stacks_; }
  Actor& spawn(std::string name, std::function<void()> body);

  // Runs until every actor has finished. Throws DeadlockError if all remaining actors are blocked with nothing
  // pending, and rethrows the first exception that escaped an actor.
  void run();

  // Per-actor private memory (not owned; null when actors share all their memory): entered before each actor runs.
  void set_memory_contexts(MemoryContexts* contexts) { memory_contexts_ = contexts; }
  MemoryContexts* memory_contexts() const { return memory_contexts_; }
  // The actor running now, or null in the engine's own code.
  Actor* running() const { return running_; }

  // Called when every remaining actor is blocked and nothing is pending, before a deadlock is reported: returns true
  // when it made an actor ready (the MPI layer releases ranks it fast-forwarded through polling loops).
  void set_stall_handler(std::function<bool()> handler) { stall_handler_ = std::move(handler); }

  // Model registration (not owned).
  void add_model(Model& model) { models_.push_back(&model); }

  // Timers. An event goes to the queue of its source(), set before it is scheduled.
  void schedule(Event& event, SimTime date, int16_t priority = 0) { queue_of(event).schedule(event, date, priority); }
  // An action at `date` that does not keep the run going (a process failure injected at a date): when every actor
  // left is blocked and only such actions remain, the run is deadlocked now; it does not wait for them.
  void schedule_background(SimTime date, std::function<void()> action);
  void cancel(Event& event) { queue_of(event).cancel(event); }
  // A fixed delay, ended by `source` (by default a network model's: sleeps go through sleep()). `what` is written out
  // only when a deadlock report asks.
  std::shared_ptr<TimerActivity> start_timer(SimTime delay, TimerDescription what,
                                             EventSource source = EventSource::Network);
  // The same, described by a text the caller made (io's steps, few and named at run time).
  std::shared_ptr<TimerActivity> start_timer_with_text(SimTime delay, std::string text,
                                                       EventSource source = EventSource::Network);

  // Called from inside an actor.
  Actor& self();
  void wait(Activity& activity);
  // Blocks until one of them is done; returns the index of the one whose completion woke the actor, as SimGrid's
  // waitany (the first handed over, same-date-order.md), or, when some were done at the call, the lowest index.
  size_t wait_any(std::span<Activity* const> activities);
  // Blocks until all of them are done, as wait() on each in turn would: the actor waits on the first unfinished one,
  // then the next. A wake that leaves some undone is answered without resuming the actor (it would only block on the
  // next one), unless interrupts are pending.
  void wait_all(std::span<Activity* const> activities)
  {
    wait_all(activities, [](Activity* activity) { return activity; });
  }
  // The same for the activities `activity_of` gives for `items` (null: none, skipped), copied once, straight into the
  // actor's wait list (the caller's items may lie on a shared stack, which the engine cannot read).
  template <class Items, class ActivityOf> void wait_all(const Items& items, ActivityOf activity_of)
  {
    Actor& me = self();
    Actor::WaitAll outer = begin_wait_all(me);
    me.wait_all_.activities.reserve(std::size(items)); // no growth: a list of the size of the first wait (most alike)
    for (const auto& item : items)
      if (Activity* activity = activity_of(item))
        me.wait_all_.activities.push_back(activity);
    run_wait_all(me, std::move(outer));
  }
  // Gives way to the other actors ready at this date: the actor goes to the back of the ready list and resumes once
  // those before it ran (to their own yield or block). What SimGrid's kernel calls (simcalls) do to the actors of one
  // date (same-date-order.md, "Rounds"); runs the interrupts that came meanwhile.
  void yield();
  // A sleep, as SimGrid's hosts end them: at least kTimePrecision long, ended at (start date + duration), and
  // scheduled only when the round's models update, the round's sleeps newest first (same-date-order.md).
  // A null duration (a model's zero overhead, paid at every send and receive) returns at once, inline.
  void sleep(SimTime duration)
  {
    if (not(duration <= 0)) // NaN sleeps as before
      start_sleep(duration);
  }

  // Makes a blocked actor runnable again (called when an activity it waits for completes: `by`).
  void wake(Actor& actor, const Activity* by = nullptr);

  // Runs `handler` in the actor's own context, as a process runs a signal handler: at once when the actor is the one
  // running; otherwise when it next resumes, and an actor blocked in wait() or wait_any() is resumed for it at the
  // current date, runs it, and blocks again on what it waited for. Dropped for an actor that has finished.
  void interrupt(Actor& actor, std::function<void()> handler);

  // Stops an actor for good, wherever it is (a process failure): it never runs again, whatever it waited for, and
  // counts as finished. Its stack is not unwound: it may run through an application's frames, whose code may be gone
  // by the time the engine is destroyed. An actor may kill itself (the call does not return).
  void kill(Actor& actor);
  bool killed(const Actor& actor) const { return actor.killed_; }
  // For engines whose actors run only mpisim's own code (replay ranks): killed actors are unwound when the engine is
  // destroyed, as blocked ones are, so that what their frames own is released rather than left on an abandoned stack.
  void unwind_killed_actors_at_teardown() { unwind_killed_ = true; }

  // The clock's value before the run starts (a restarted attempt continues from the previous one's date).
  void start_clock_at(SimTime date) { now_ = date; }

  // The actors blocked now, in creation order, each with what it waits for (the lines of a deadlock report).
  struct BlockedActor {
    const Actor* actor;
    std::string waits_for;
  };
  std::vector<BlockedActor> blocked_actors() const;

  uint64_t fingerprint() const { return fingerprint_; }
  size_t actor_count() const { return actors_.size(); }
  uint64_t events_fired() const { return events_fired_; }

private:
  void run_ready_actors();
  // Blocks the running actor until it is woken; runs the interrupts it was woken for (or that came meanwhile) and
  // returns whether there were any.
  bool block(Actor& me, const Activity* on);
  // wait_all(): the actor's wait list, emptied for the caller to fill, and the wait list of a wait_all() this one
  // interrupted (inactive when none), given back by run_wait_all() once the wait is over.
  void start_sleep(SimTime duration); // sleep() of a duration > 0
  Actor::WaitAll begin_wait_all(Actor& me);
  void run_wait_all(Actor& me, Actor::WaitAll outer);
  // The first activity of the actor's wait list not done yet, with the actor among its waiters; null when all are done.
  Activity* next_in_wait_all(Actor& actor);
  // What an actor woken in wait_all() does first, done in its place: blocks it on the next unfinished activity.
  // False when none is left (it must run).
  bool reblock_in_wait_all(Actor& actor);
  bool run_interrupts(Actor& me);
  void update_models();
  void schedule_new_sleeps();
  // Keeps the timer alive until it fires, at now + delay (never before now).
  std::shared_ptr<TimerActivity> schedule_timer(std::shared_ptr<TimerActivity> timer, SimTime delay,
                                                EventSource source);
  void fire_due_events();
  EventQueue& queue_of(const Event& event) { return events_[static_cast<size_t>(event.source())]; }
  SimTime next_event_date();
  size_t pending_events() const;
  [[noreturn]] void report_deadlock() const;
  void mix(uint64_t value);

  SimTime now_ = 0;
  std::array<EventQueue, kEventSources> events_; // by EventSource
  struct NewSleep {
    std::shared_ptr<TimerActivity> timer;
    SimTime end;
  };
  std::vector<NewSleep> new_sleeps_; // started since the models last updated, oldest first
  // Declared before the actors, which give their stacks back to it when they end.
  std::unique_ptr<StackProvider> stacks_ = std::make_unique<GuardedStacks>(size_t{256} * 1024);
  std::vector<std::unique_ptr<Actor>> actors_;
  std::deque<Actor*> ready_;
  std::vector<Model*> models_;
  Actor* running_ = nullptr;
  MemoryContexts* memory_contexts_ = nullptr;
  std::function<bool()> stall_handler_;
  size_t alive_ = 0;
  bool unwind_killed_ = false; // unwind_killed_actors_at_teardown()
  uint64_t fingerprint_ = 1469598103934665603ULL;
  uint64_t events_fired_ = 0;
  Engine* previous_ = nullptr;
  class BackgroundEvent;
  std::vector<std::unique_ptr<BackgroundEvent>> background_events_;
  size_t background_pending_ = 0;
};

} // namespace mpisim::kernel
