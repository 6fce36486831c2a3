#include "io/IoOperation.hpp"

namespace mpisim::io {

void IoOperation::on_complete()
{
  std::vector<std::function<void()>> next;
  next.swap(next_);
  for (auto& step : next)
    step();
}

Continuations::Continuations(kernel::Engine& engine) : engine_(engine)
{
  engine_.add_model(*this);
}

void Continuations::after(const ActivityPtr& activity, std::function<void()> next)
{
  if (activity->done()) {
    next();
    return;
  }
  if (auto* operation = dynamic_cast<IoOperation*>(activity.get())) {
    operation->then(std::move(next));
    return;
  }
  Waiter& waiter = waiters_.emplace_back(activity, std::move(next));
  activity->set_observer(&waiter);
}

void Continuations::after_delay(double delay, const std::string& what, std::function<void()> next)
{
  if (delay <= 0) {
    next();
    return;
  }
  after(engine_.start_timer_with_text(delay, what), std::move(next));
}

void Continuations::Waiter::activity_done(kernel::Activity&)
{
  auto next = std::move(next_);
  next_ = nullptr;
  next();
}

void Continuations::update(kernel::SimTime)
{
  std::erase_if(waiters_, [](const Waiter& waiter) { return waiter.ran(); });
}

} // namespace mpisim::io
