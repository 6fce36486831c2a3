#include "kernel/Activity.hpp"

#include "kernel/Engine.hpp"

#include <vector>

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
  waiters_.take_all([&](Actor& actor) { engine.wake(actor, this); });
}

void WaiterList::remove(const Actor* actor)
{
  if (first_ == actor)
    first_ = nullptr;
  if (more_ != nullptr)
    std::erase(*more_, actor);
}

void TimerActivity::fire()
{
  auto self = std::move(keep_alive_); // released when this function returns
  complete();
}

} // namespace mpisim::kernel
