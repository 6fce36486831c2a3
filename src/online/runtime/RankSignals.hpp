// Signals sent to ranks in simulated time: a rank's real-time interval timer (alarm, ualarm, setitimer with
// ITIMER_REAL) expires at a simulated date, and kill() between ranks; the signal is raised in the rank's own context
// at that date (kernel Engine::interrupt), where the program's disposition handles it (ProgramSignals.hpp).
#pragma once

#include "kernel/Engine.hpp"

#include <memory>
#include <vector>

namespace mpisim::online {

// A timer's setting, in seconds: time left until it expires (0: disarmed), then the period (0: once).
struct TimerSetting {
  double left = 0;
  double interval = 0;
};

class RankSignals {
public:
  RankSignals(kernel::Engine& engine, int ranks);
  ~RankSignals();
  RankSignals(const RankSignals&) = delete;
  RankSignals& operator=(const RankSignals&) = delete;

  // The actor that runs the rank (Runtime::attach).
  void bind(int rank, kernel::Actor& actor);
  // Raises `signal` in the rank's context now (while it waits in the simulator, it is resumed for the handler and
  // waits on after). Nothing for a rank not started or finished, as for a process that no longer exists.
  void send(int rank, int signal);
  // Arms the rank's real-time timer (left 0: disarms it); returns the previous setting.
  TimerSetting set_timer(int rank, TimerSetting setting);
  TimerSetting timer(int rank) const;

private:
  struct Timer;
  kernel::Engine& engine_;
  std::vector<kernel::Actor*> actors_;         // by rank, null until bound
  std::vector<std::unique_ptr<Timer>> timers_; // by rank, made when first armed
};

} // namespace mpisim::online
