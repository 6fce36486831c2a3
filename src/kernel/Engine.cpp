#include "kernel/Engine.hpp"

#include "common/Errors.hpp"
#include "kernel/Pool.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <sstream>
#include <utility>

namespace mpisim::kernel {

namespace {
thread_local Engine* current_engine = nullptr;
}

class Engine::BackgroundEvent : public Event {
public:
  BackgroundEvent(Engine& engine, std::function<void()> action) : engine_(engine), action_(std::move(action)) {}
  void fire() override
  {
    --engine_.background_pending_;
    std::function<void()> action = std::move(action_);
    action();
  }

private:
  Engine& engine_;
  std::function<void()> action_;
};

Engine::Engine() : previous_(current_engine)
{
  current_engine = this;
}

Engine::~Engine()
{
  // Actors still blocked (after a deadlock or a failure) are unwound here, while the engine is still current, in
  // creation order; then the events still pending are told they will never fire.
  for (const auto& actor : actors_) {
    running_ = actor.get();
    actor->cancel(unwind_killed_);
  }
  running_ = nullptr;
  actors_.clear();
  for (NewSleep& sleep : new_sleeps_)
    sleep.timer->discard();
  for (EventQueue& queue : events_)
    while (not queue.empty())
      queue.pop()->discard();
  current_engine = previous_;
}

Engine& Engine::current()
{
  assert(current_engine != nullptr);
  return *current_engine;
}

void Engine::set_stack_provider(std::unique_ptr<StackProvider> stacks)
{
  assert(actors_.empty() && "stacks are chosen before the first actor");
  stacks_ = std::move(stacks);
}

Actor& Engine::spawn(std::string name, std::function<void()> body)
{
  int id = static_cast<int>(actors_.size());
  actors_.push_back(std::make_unique<Actor>(*this, id, std::move(name), std::move(body), *stacks_));
  Actor& actor = *actors_.back();
  if (running_ != nullptr)
    actor.memory_context_ = running_->memory_context_;
  actor.state_ = Actor::State::Ready;
  ready_.push_back(&actor);
  ++alive_;
  return actor;
}

Actor& Engine::self()
{
  assert(running_ != nullptr && "called outside of an actor");
  return *running_;
}

void Engine::wake(Actor& actor, const Activity* by)
{
  if (actor.state_ != Actor::State::Blocked)
    return;
  actor.state_ = Actor::State::Ready;
  actor.blocked_on_ = nullptr;
  actor.woken_by_ = by;
  ready_.push_back(&actor);
  // The states its wait_all() reads when it is taken off the ready list: asked for now, their misses overlap the rest
  // of the round's events (the actor's lines that say where they are have just come in).
  if (actor.wait_all_.active)
    actor.wait_all_.prefetch_states();
}

void Engine::interrupt(Actor& actor, std::function<void()> handler)
{
  if (actor.state_ == Actor::State::Finished)
    return;
  if (&actor == running_) {
    handler();
    return;
  }
  actor.interrupts_.push_back(std::move(handler));
  actor.interrupted_ = true;
  wake(actor); // nothing when it is not blocked: it runs the handler when it next resumes
}

bool Engine::block(Actor& me, const Activity* on)
{
  me.state_ = Actor::State::Blocked;
  me.blocked_on_ = on;
  me.woken_by_ = nullptr;
  me.suspend();
  return run_interrupts(me);
}

bool Engine::run_interrupts(Actor& me)
{
  if (not me.interrupted_)
    return false;
  while (not me.interrupts_.empty()) { // a handler may bring another (an interval timer, a signal sent to itself)
    std::vector<std::function<void()>> handlers;
    handlers.swap(me.interrupts_);
    for (auto& handler : handlers)
      handler();
  }
  me.interrupted_ = false;
  return true;
}

void Engine::yield()
{
  Actor& me = self();
  me.state_ = Actor::State::Ready;
  ready_.push_back(&me);
  me.suspend();
  run_interrupts(me);
}

void Engine::wait(Activity& activity)
{
  if (activity.done())
    return;
  Actor& me = self();
  activity.waiters_.add(&me); // stays registered across interrupts, until the activity completes
  while (block(me, &activity) && not activity.done()) {
  }
}

Activity* Actor::WaitAll::next_unfinished()
{
  // The activities after the next went cold while other actors ran (requests posted long ago): their states are
  // asked for together, rather than one miss after the other as the walk reaches them.
  prefetch_states();
  const size_t count = activities.size();
  Activity* const* list = activities.data();
  while (next < count && list[next]->done()) {
    ++next;
    registered = false;
  }
  return next < count ? list[next] : nullptr;
}

void Actor::WaitAll::prefetch_states() const
{
  const size_t ahead = std::min(activities.size(), size_t{next} + 1 + kPrefetchAhead);
  Activity* const* list = activities.data();
  for (size_t later = next + 1; later < ahead; ++later)
    list[later]->prefetch_state();
}

Actor::WaitAll Engine::begin_wait_all(Actor& me)
{
  // A wait_all from an interrupt handler inside another keeps the outer one's state.
  Actor::WaitAll outer = me.wait_all_.active ? std::exchange(me.wait_all_, {}) : Actor::WaitAll{};
  Actor::WaitAll& all = me.wait_all_;
  all.activities.clear();
  all.next = 0;
  all.registered = false;
  all.active = true;
  return outer;
}

void Engine::run_wait_all(Actor& me, Actor::WaitAll outer)
{
  while (Activity* next = next_in_wait_all(me))
    block(me, next);
  Actor::WaitAll& all = me.wait_all_;
  all.active = false;
  all.activities.clear(); // a list longer than the inline part gives its block back (memory per rank)
  if (outer.active)
    me.wait_all_ = std::move(outer);
}

Activity* Engine::next_in_wait_all(Actor& actor)
{
  Actor::WaitAll& all = actor.wait_all_;
  Activity* next = all.next_unfinished();
  if (next != nullptr && not all.registered) {
    next->waiters_.add(&actor);
    all.registered = true;
  }
  return next;
}

bool Engine::reblock_in_wait_all(Actor& actor)
{
  Activity* next = next_in_wait_all(actor);
  if (next == nullptr)
    return false;
  actor.state_ = Actor::State::Blocked;
  actor.blocked_on_ = next;
  actor.woken_by_ = nullptr;
  return true;
}

size_t Engine::wait_any(std::span<Activity* const> activities)
{
  auto first_done = [&]() -> size_t {
    for (size_t i = 0; i < activities.size(); ++i)
      if (activities[i]->done())
        return i;
    return activities.size();
  };
  if (size_t index = first_done(); index < activities.size())
    return index;
  Actor& me = self();
  for (Activity* activity : activities)
    activity->waiters_.add(&me);
  const Activity* first = activities.empty() ? nullptr : activities.front();
  while (block(me, first) && first_done() == activities.size()) {
  }
  for (Activity* activity : activities) // forget the registrations that did not fire
    activity->waiters_.remove(&me);
  // Others may have completed in the same round, before the actor ran: the one that woke it is the answer.
  const auto woke = std::find(activities.begin(), activities.end(), me.woken_by_);
  if (woke != activities.end() && (*woke)->done())
    return static_cast<size_t>(woke - activities.begin());
  return first_done();
}

void Engine::schedule_background(SimTime date, std::function<void()> action)
{
  background_events_.push_back(std::make_unique<BackgroundEvent>(*this, std::move(action)));
  ++background_pending_;
  schedule(*background_events_.back(), std::max(date, now_));
}

void Engine::kill(Actor& actor)
{
  if (actor.state_ == Actor::State::Finished)
    return;
  actor.killed_ = true;
  actor.interrupts_.clear();
  actor.interrupted_ = false;
  if (&actor == running_) { // run_ready_actors counts it as finished when it gives control back
    actor.state_ = Actor::State::Finished;
    actor.suspend();
    return; // never reached: nothing resumes a finished actor
  }
  if (actor.state_ == Actor::State::Ready)
    ready_.erase(std::find(ready_.begin(), ready_.end(), &actor));
  actor.state_ = Actor::State::Finished;
  actor.blocked_on_ = nullptr;
  --alive_;
}

std::shared_ptr<TimerActivity> Engine::start_timer(SimTime delay, TimerDescription what, EventSource source)
{
  return schedule_timer(make_pooled<TimerActivity>(what), delay, source);
}

namespace {

// A timer that owns its description.
class TextTimer final : public TimerActivity {
public:
  explicit TextTimer(std::string text) : TimerActivity(""), text_(std::move(text)) {}
  std::string describe() const override { return text_; }

private:
  std::string text_;
};

} // namespace

std::shared_ptr<TimerActivity> Engine::start_timer_with_text(SimTime delay, std::string text, EventSource source)
{
  return schedule_timer(make_pooled<TextTimer>(std::move(text)), delay, source);
}

std::shared_ptr<TimerActivity> Engine::schedule_timer(std::shared_ptr<TimerActivity> timer, SimTime delay,
                                                      EventSource source)
{
  timer->keep_alive_ = timer;
  timer->set_source(source);
  schedule(*timer, now_ + std::max(delay, 0.0));
  return timer;
}

void Engine::start_sleep(SimTime duration)
{
  auto timer = make_pooled<TimerActivity>("sleep");
  timer->keep_alive_ = timer;
  timer->set_source(EventSource::Hosts);
  new_sleeps_.push_back({timer, now_ + std::max(duration, kTimePrecision)});
  wait(*timer);
}

// SimGrid puts a new sleep at the front of its host model's list of changed actions, which the next update walks from
// the front: the round's sleeps take their sequence numbers newest first, before any other end the update moves.
void Engine::schedule_new_sleeps()
{
  for (auto sleep = new_sleeps_.rbegin(); sleep != new_sleeps_.rend(); ++sleep)
    schedule(*sleep->timer, sleep->end);
  new_sleeps_.clear();
}

void Engine::mix(uint64_t value)
{
  fingerprint_ ^= value;
  fingerprint_ *= 1099511628211ULL;
}

void Engine::run_ready_actors()
{
  // Loaded while the actor taken off the ready list runs: the next one (its lines were asked for one step ago, as the
  // second), and the one after it. An actor in wait_all() starts by reading its wait list, a heap block as cold as the
  // actor: asked for one step ahead, once the actor's own lines (which say where the list is) have come in.
  auto prefetch_next_actors = [this] {
    if (ready_.empty())
      return;
    const Actor& next = *ready_.front();
    next.prefetch();
    const Actor::WaitAll& all = next.wait_all_;
    if (all.active && all.activities.on_heap() && all.next < all.activities.size())
      __builtin_prefetch(all.activities.data() + all.next);
    if (ready_.size() > 1)
      ready_[1]->prefetch();
  };
  while (not ready_.empty()) {
    Actor* actor = ready_.front();
    ready_.pop_front();
    prefetch_next_actors();
    mix(static_cast<uint64_t>(actor->id_));
    if (actor->wait_all_.active && not actor->interrupted_ && reblock_in_wait_all(*actor))
      continue; // as if it ran: it would only have blocked on the next one
    running_ = actor;
    if (memory_contexts_ != nullptr && actor->memory_context_ != kNoMemoryContext)
      memory_contexts_->enter(actor->memory_context_);
    actor->resume();
    running_ = nullptr;
    if (actor->state_ == Actor::State::Finished) {
      --alive_;
      if (actor->failure_)
        std::rethrow_exception(actor->failure_);
    }
  }
}

void Engine::update_models()
{
  schedule_new_sleeps();
  for (Model* model : models_)
    model->update(now_);
}

SimTime Engine::next_event_date()
{
  SimTime next = kNever;
  for (EventQueue& queue : events_)
    next = std::min(next, queue.next_date());
  return next;
}

size_t Engine::pending_events() const
{
  size_t count = 0;
  for (const EventQueue& queue : events_)
    count += queue.size();
  return count;
}

// Source by source: an event that a firing one schedules within the round fires in it too, before the due events of
// the sources after its own.
void Engine::fire_due_events()
{
  SimTime round_date = next_event_date();
  // As SimGrid, the clock moves by the difference to the next date, which can differ from that date in the last bit.
  now_ = std::max(now_, now_ + (round_date - now_));
  mix(std::bit_cast<uint64_t>(now_));
  auto next_due = [&]() -> EventQueue* {
    for (EventQueue& queue : events_)
      if (queue.next_within_precision_of(round_date))
        return &queue;
    return nullptr;
  };
  while (EventQueue* queue = next_due()) {
    Event* event = queue->pop();
    queue->prefetch_next(); // loaded while this one fires
    ++events_fired_;
    event->fire();
  }
  for (Model* model : models_)
    model->events_fired(now_);
}

void Engine::run()
{
  while (true) {
    run_ready_actors();
    if (alive_ == 0) {
      for (Model* model : models_)
        model->run_ended(now_);
      return;
    }
    update_models();
    if (not ready_.empty())
      continue;
    if (pending_events() == background_pending_) {
      if (stall_handler_ && stall_handler_())
        continue;
      report_deadlock();
    }
    fire_due_events();
  }
}

std::vector<Engine::BlockedActor> Engine::blocked_actors() const
{
  std::vector<BlockedActor> blocked;
  for (const auto& actor : actors_)
    if (actor->state_ == Actor::State::Blocked)
      blocked.push_back({actor.get(), actor->blocked_on_ != nullptr ? actor->blocked_on_->describe()
                                                                    : std::string("one of several requests")});
  return blocked;
}

void Engine::report_deadlock() const
{
  std::ostringstream out;
  const std::vector<BlockedActor> blocked = blocked_actors();
  out << "deadlock at simulated time " << now_ << " s: " << blocked.size() << " blocked actor"
      << (blocked.size() == 1 ? "" : "s");
  for (const BlockedActor& b : blocked)
    out << "\n  " << b.actor->name() << " waits for " << b.waits_for;
  throw DeadlockError(out.str());
}

} // namespace mpisim::kernel
