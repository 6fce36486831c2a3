#include "replay/Checkpoints.hpp"

#include <algorithm>
#include <utility>

namespace mpisim::replay {

CheckpointCoordinator::CheckpointCoordinator(int ranks, const CheckpointOptions& options, CheckpointImage from,
                                             double start)
    : ranks_(ranks), options_(options), due_(start + options.interval), committed_(std::move(from))
{
}

void CheckpointCoordinator::enter(uint64_t index, double date, bool quiet, int64_t unmatched)
{
  Entries& entries = collectives_[index];
  ++entries.entered;
  entries.latest = std::max(entries.latest, date);
  entries.quiet = entries.quiet && quiet;
  entries.unmatched += unmatched;
}

bool CheckpointCoordinator::checkpoint_after(uint64_t index, double date)
{
  Entries& entries = collectives_[index];
  if (not entries.checkpoint) {
    // Every rank entered, none with a request pending, every message received: a consistent cut. (A rank leaving
    // before all entered cannot happen in a synchronizing collective; if it did, this one is simply not a cut.)
    const bool cut = entries.entered == ranks_ && entries.quiet && entries.unmatched == 0;
    entries.checkpoint = cut && entries.latest >= due_ && not writing_;
    if (*entries.checkpoint) {
      writing_ = CheckpointImage{committed_.number + 1, std::vector<uint64_t>(static_cast<size_t>(ranks_), 0),
                                 index + 1, date, 0};
      written_ = 0;
    }
  }
  const bool checkpoint = *entries.checkpoint;
  if (++entries.left == ranks_)
    collectives_.erase(index);
  return checkpoint;
}

void CheckpointCoordinator::written(int rank, uint64_t position, double date)
{
  writing_->positions[static_cast<size_t>(rank)] = position;
  if (++written_ < ranks_)
    return;
  writing_->committed = date; // the last rank to finish: ranks write in simulated-time order
  committed_ = std::move(*writing_);
  writing_.reset();
  completed_.push_back(committed_);
  due_ = date + options_.interval;
}

} // namespace mpisim::replay
