// What `mpisim run` reports after the application: the simulated time and, per rank, where it went.
#pragma once

#include "online/options/RunnerOptions.hpp"
#include "online/runner/Attempts.hpp"
#include "online/runtime/RunEnd.hpp"
#include "online/runtime/Runtime.hpp"

#include <cstdint>
#include <string>

namespace mpisim::online {

struct RunOutcome {
  double simulated_time = 0;
  double wall_seconds = 0;   // real time of the whole simulation
  double host_speed = 0;     // flop/s used to scale computation
  RunEnd end;                // how the run ended: outcome, exit status, the application's status, mpisim's report
  int failed_rank = -1;      // the first rank whose main returned non-zero
  uint64_t fingerprint = 0;  // the engine's hash of the event sequence: equal runs, equal fingerprints
  std::string privatization; // how the ranks' globals were made private: "dlopen" or "swap"
  bool huge_pages = false;   // whether the heap asked for huge pages (--huge-pages, HugePages.hpp)
  // Every attempt (--restart), this one last, with the failures of each; empty when no failure was injected.
  std::vector<Attempt> attempts;
};

std::string summary_text(const RunnerOptions& options, const Runtime& runtime, const RunOutcome& outcome);
// `runtime` is null when the run never started (bad input): no ranks, no model parameters.
std::string summary_json(const RunnerOptions& options, const Runtime* runtime, const RunOutcome& outcome);

} // namespace mpisim::online
