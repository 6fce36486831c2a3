// Offline replay of a time-independent trace: one actor per rank reads its actions and performs them through the MPI
// layer, under the chosen models. The result gives the simulated time and, per rank, where the time went.
//
// Time accounting per rank: compute = compute actions and the flops of reductions; sleep = sleep actions;
// wait = wait, waitall and test; communicate = every other MPI action (blocking point-to-point, non-blocking posts,
// collectives). finish = the date the rank ran out of actions (after waiting for its pending requests); a rank that
// failed (--fail) stops where it was: its trace is not read further, and its finish is the date it failed.
// checkpoint = writing checkpoints (--checkpoint-interval). With --restart, a failure ends the attempt and the next
// one resumes from the last complete checkpoint in a new simulation (Checkpoints.hpp); the figures add up the
// attempts, finish is the last one's.
#pragma once

#include "mpi/collectives/Collectives.hpp"

#include "mpi/Simulation.hpp"
#include "replay/Checkpoints.hpp"
#include "replay/TraceFormat.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mpisim::replay {

struct ReplayOptions {
  std::string trace; // index file, or a single file holding every rank
  int ranks = -1;    // -1: as many as the trace lists
  mpi::SimulationOptions simulation;
  TraceFormatOptions format;             // OTF2: the host speed that turns recorded computation time into flops
  std::vector<mpi::Observer*> observers; // told about every replayed action and every message (not owned)
  std::vector<models::LinkObserver*> link_observers; // told about link bandwidth over time (not owned)
  std::vector<models::NicObserver*> nic_observers;   // told about the NIC model's steps (--model bxi; not owned)
  CheckpointOptions checkpoints; // --checkpoint-interval, --checkpoint-cost, --restart, --restart-cost
  // Replay ranks run only mpisim's own code, which keeps no pointer into a suspended rank's frames: by default they
  // share one stack (copy-on-switch); Arena gives each a slice of its own (stack depth measurement, comparison).
  mpi::RankStacks rank_stacks = mpi::RankStacks::Shared;
  // false: the simulation of the replay's last attempt (its ranks, messages, trace streams and platform) is not
  // freed when the replay returns but left to the process's end. For a command that exits right after (`mpisim
  // replay`): at 16 384 ranks the freeing costs some 40 M instructions and touches every rank's memory again. The
  // objects are unreachable afterwards (a leak checker at a normal exit would report them).
  bool teardown = true;
};

struct RankStats {
  double compute = 0;
  double sleep = 0;
  double communicate = 0;
  double wait = 0;
  double finish = 0;
  double checkpoint = 0; // writing checkpoints (--checkpoint-cost each)
  uint64_t actions = 0;
  bool failed = false;
};

// A process failure, in the attempt it ended or happened in (1 without restarts).
struct ReplayFailure {
  int rank;
  double date;
  int attempt;
};

// An attempt of a replay with checkpoint/restart: from `start` to `end`, resumed from checkpoint `checkpoint` (0: the
// start of the trace); outcome "ok" or "process-failure".
struct ReplayAttempt {
  int attempt;
  double start;
  double end;
  const char* outcome;
  int checkpoint;
};

// A checkpoint completed: the attempt that took it, the date the first rank left the collective of its cut, the
// date its last part was written.
struct ReplayCheckpoint {
  int attempt;
  double cut;
  double committed;
};

struct ReplayResult {
  double simulated_time = 0;
  std::vector<RankStats> ranks;
  uint64_t actions = 0;
  uint64_t fingerprint = 0;
  std::map<std::string, std::string> model_parameters;
  std::vector<mpi::AutomaticDecision> collective_decisions; // --coll-selector automatic
  std::vector<ReplayFailure> failures;                      // --fail, --fail-mtbf: the ranks that failed, when
  // With --checkpoint-interval or --restart (else empty, and time_lost 0): every attempt, every checkpoint, and for
  // each aborted attempt its failure date plus the restart cost minus the date its restored state was reached.
  std::vector<ReplayAttempt> attempts;
  std::vector<ReplayCheckpoint> checkpoints;
  double time_lost = 0;
  // --switch: simulated seconds under each model (time rules; size rules count for nothing), else empty.
  std::vector<std::pair<std::string, double>> time_under_models;
};

// Throws InputError for bad input, DeadlockError when the trace deadlocks.
ReplayResult replay(const ReplayOptions& options);

} // namespace mpisim::replay
