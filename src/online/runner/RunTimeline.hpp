// mpisim run --timeline: the writer observing the run, and the reporter that tells it about the ranks' MPI calls.
#pragma once

#include "online/options/RunnerOptions.hpp"
#include "online/runner/Attempts.hpp"
#include "online/runtime/CallReporter.hpp"
#include "online/runtime/Runtime.hpp"

#include "timeline/PortalsCsvWriter.hpp"
#include "timeline/TimelineWriter.hpp"

#include <memory>

namespace mpisim::online {

class RunTimeline {
public:
  // Opens the file and subscribes to `simulation` and `runtime` (throws InputError when it cannot be written). In a
  // restarted run (`previous` not empty), the file starts with the attempts before this one and their failures (the
  // calls they made are not in it: each attempt rewrites the file), then this attempt's start, `start`.
  RunTimeline(const RunnerOptions& options, mpi::Simulation& simulation, Runtime& runtime,
              const std::vector<Attempt>& previous = {}, double start = 0);
  // Completes the file (once; later calls do nothing). Also after a failed run: the timeline shows what happened up
  // to the failure. Errors are reported on stderr, not thrown (the run's outcome matters more).
  void finish();

private:
  std::unique_ptr<timeline::TimelineWriter> writer_;        // --timeline (null: none)
  std::unique_ptr<timeline::PortalsCsvWriter> portals_csv_; // --portals-csv (null: none)
  std::unique_ptr<CallReporter> reporter_;
  Runtime& runtime_;
};

// What produced the timeline, written into it.
std::vector<std::pair<std::string, std::string>> timeline_provenance(const RunnerOptions& options);

} // namespace mpisim::online
