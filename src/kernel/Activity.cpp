#include "kernel/Activity.hpp"

#include "kernel/Engine.hpp"

namespace mpisim::kernel {

void Activity::complete()
{
  if (state_ == State::Done)
    return;
  Engine& engine = Engine::current();
  state_ = State::Done;
  finish_date_ = engine.now();
  on_complete();
  if (ActivityObserver* observer = observer_) {
    observer_ = nullptr;
    observer->activity_done(*this);
  }
  std::vector<Actor*> waiters;
  waiters.swap(waiters_);
  for (Actor* actor : waiters)
    engine.wake(*actor, this);
}

void TimerActivity::fire()
{
  auto self = std::move(keep_alive_); // released when this function returns
  complete();
}

} // namespace mpisim::kernel
