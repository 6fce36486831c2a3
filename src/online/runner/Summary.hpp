// What `mpisim run` reports after the application: the simulated time and, per rank, where it went.
#pragma once

#include "online/options/RunnerOptions.hpp"
#include "online/runtime/Runtime.hpp"

#include <cstdint>
#include <string>

namespace mpisim::online {

struct RunOutcome {
  double simulated_time = 0;
  double wall_seconds = 0; // real time of the whole simulation
  double host_speed = 0;   // flop/s used to scale computation
  int exit_status = 0;     // the first non-zero status a rank's main returned
  int failed_rank = -1;
  uint64_t fingerprint = 0;  // the engine's hash of the event sequence: equal runs, equal fingerprints
  std::string privatization; // how the ranks' globals were made private: "dlopen" or "swap"
};

std::string summary_text(const RunnerOptions& options, const Runtime& runtime, const RunOutcome& outcome);
std::string summary_json(const RunnerOptions& options, const Runtime& runtime, const RunOutcome& outcome);

} // namespace mpisim::online
