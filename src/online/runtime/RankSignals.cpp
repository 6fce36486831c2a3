#include "online/runtime/RankSignals.hpp"

#include "online/runtime/ProgramSignals.hpp"

#include <algorithm>
#include <csignal>

namespace mpisim::online {

struct RankSignals::Timer final : kernel::Event {
  Timer(RankSignals& owner, int rank) : owner(owner), rank(rank) {}
  void fire() override
  {
    if (interval > 0) // re-armed before the handler runs, as the kernel's interval timers are
      owner.engine_.schedule(*this, owner.engine_.now() + interval);
    owner.send(rank, SIGALRM);
  }
  RankSignals& owner;
  int rank;
  double interval = 0;
};

RankSignals::RankSignals(kernel::Engine& engine, int ranks)
    : engine_(engine), actors_(static_cast<size_t>(ranks), nullptr), timers_(static_cast<size_t>(ranks))
{
}

RankSignals::~RankSignals()
{
  for (const auto& timer : timers_)
    if (timer && timer->scheduled())
      engine_.cancel(*timer);
}

void RankSignals::bind(int rank, kernel::Actor& actor)
{
  actors_.at(static_cast<size_t>(rank)) = &actor;
}

void RankSignals::send(int rank, int signal)
{
  kernel::Actor* actor = actors_.at(static_cast<size_t>(rank));
  if (actor == nullptr)
    return;
  engine_.interrupt(*actor, [rank, signal] { program_signals::deliver(rank, signal); });
}

TimerSetting RankSignals::timer(int rank) const
{
  const auto& timer = timers_.at(static_cast<size_t>(rank));
  if (not timer || not timer->scheduled())
    return {};
  return {std::max(timer->date() - engine_.now(), 0.0), timer->interval};
}

TimerSetting RankSignals::set_timer(int rank, TimerSetting setting)
{
  const TimerSetting previous = timer(rank);
  auto& timer = timers_.at(static_cast<size_t>(rank));
  if (not timer)
    timer = std::make_unique<Timer>(*this, rank);
  if (timer->scheduled())
    engine_.cancel(*timer);
  timer->interval = setting.interval;
  if (setting.left > 0)
    engine_.schedule(*timer, engine_.now() + setting.left);
  return previous;
}

} // namespace mpisim::online
