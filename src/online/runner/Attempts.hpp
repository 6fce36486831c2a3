// Checkpoint/restart (--restart N, --restart-cost T): a run aborted by a process failure is run again, up to N times,
// in the same working directory (the files the application wrote, its checkpoints, are there), with the simulated
// clock continuing from the abort date plus the restart cost. The runner starts each new attempt by executing itself
// again with the same arguments; what the previous attempts were travels in an environment variable.
#pragma once

#include "mpi/Failures.hpp"

#include <string>
#include <vector>

namespace mpisim::online {

struct Attempt {
  double start = 0;                     // simulated date the attempt started
  double end = 0;                       // the date it ended (aborted, or the run's end)
  std::string outcome;                  // the JSON summary's outcome name
  std::vector<mpi::FailureAt> failures; // the ranks that failed during it
};

// The attempts before this one (empty for the first), as the previous attempt left them.
std::vector<Attempt> previous_attempts();

// Starts the next attempt: this process is replaced by a new runner with the same arguments, told about `attempts`
// (every attempt so far, the one ending now last). Returns only when that fails.
void start_next_attempt(const std::vector<Attempt>& attempts);

// Remembers the runner's arguments for start_next_attempt (main's argv).
void remember_arguments(char** argv);

// The simulated time lost to failures: every aborted attempt's duration plus one restart cost per restart.
double time_lost(const std::vector<Attempt>& attempts, double restart_cost);

} // namespace mpisim::online
