// Coordinated checkpoint/restart of a replayed trace (--checkpoint-interval, --checkpoint-cost, --restart,
// --restart-cost; docs/failures.md, "Checkpoint/restart in replay").
//
// A checkpoint is taken at the end of a synchronizing collective over MPI_COMM_WORLD (every rank's result depends on
// every rank's entry), when no request was pending at any entry and every point-to-point message sent had been
// received: no message crosses that cut, so each rank's state is its position in its trace. The first rank to leave
// the collective decides for all, from what every rank brought to it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace mpisim::replay {

struct CheckpointOptions {
  double interval = 0;     // simulated seconds between the end of a checkpoint and the next one (0: none)
  double cost = 0;         // what each rank spends writing its part of a checkpoint
  int restarts = 0;        // --restart: attempts after the first, each from the last complete checkpoint
  double restart_cost = 0; // --restart-cost: between the failure and the next attempt's start
  bool checkpointing() const { return interval > 0; }
};

// Where the ranks resume: each after the first positions[r] actions of its trace (empty: at the start).
struct CheckpointImage {
  int number = 0;                  // 1, 2, ... over the whole replay; 0: the start of the trace
  std::vector<uint64_t> positions; // per rank, actions performed
  uint64_t collectives = 0;        // synchronizing world collectives performed before the cut
  double cut = 0;                  // the date the first rank left the collective
  double committed = 0;            // the date the last rank finished writing
};

// The checkpoints of one attempt. Ranks call it from their actors, in simulated-time order.
class CheckpointCoordinator {
public:
  CheckpointCoordinator(int ranks, const CheckpointOptions& options, CheckpointImage from, double start);

  // A rank enters synchronizing world collective `index` at `date`; `quiet`: it has no request pending and has not
  // used MPI-IO; `unmatched`: point-to-point messages it sent minus receives it posted since the last cut.
  void enter(uint64_t index, double date, bool quiet, int64_t unmatched);
  // The rank left collective `index` at `date`: whether the ranks checkpoint after it (the same answer for all).
  bool checkpoint_after(uint64_t index, double date);
  // The rank has written its part of the checkpoint being taken: it resumes after `position` actions; at `date`.
  void written(int rank, uint64_t position, double date);

  // The last complete checkpoint (the one the attempt started from if it completed none).
  const CheckpointImage& committed() const { return committed_; }
  // The checkpoints this attempt completed, in order.
  const std::vector<CheckpointImage>& completed() const { return completed_; }

private:
  struct Entries {
    int entered = 0;
    int left = 0;
    double latest = 0;
    bool quiet = true;
    int64_t unmatched = 0;
    std::optional<bool> checkpoint; // decided by the first rank to leave
  };

  int ranks_;
  CheckpointOptions options_;
  double due_;                              // the earliest last entry of a collective that checkpoints
  std::map<uint64_t, Entries> collectives_; // those some rank has entered and not every rank left
  std::optional<CheckpointImage> writing_;  // the checkpoint being written
  int written_ = 0;                         // ranks that have written their part of it
  CheckpointImage committed_;
  std::vector<CheckpointImage> completed_;
};

} // namespace mpisim::replay
