// The checkpoint coordinator's decisions (replay/Checkpoints.hpp), rank by rank as the replayers call it: a cut needs
// every rank entered, quiet, with as many receives posted as messages sent, and its last entry at or after the due
// date (the last checkpoint's completion, or the attempt's start, plus the interval).
#include "replay/Checkpoints.hpp"

#include <gtest/gtest.h>

using namespace mpisim::replay;

namespace {

CheckpointOptions every(double interval)
{
  CheckpointOptions options;
  options.interval = interval;
  options.cost = 0.25;
  return options;
}

} // namespace

TEST(replay_checkpoints, TheFirstCutAfterTheIntervalIsTakenAndCompleteWhenTheLastRankHasWritten)
{
  CheckpointCoordinator coordinator(2, every(1.5), {}, 0);
  // Collective 0: last entry at 1.0 < 1.5, no checkpoint, for either rank.
  coordinator.enter(0, 1.0, true, 0);
  coordinator.enter(0, 0.9, true, 0);
  EXPECT_FALSE(coordinator.checkpoint_after(0, 1.1));
  EXPECT_FALSE(coordinator.checkpoint_after(0, 1.2));
  // Collective 1: last entry at 2.0: a checkpoint; rank 1 (one message sent) and rank 0 (one received) balance.
  coordinator.enter(1, 2.0, true, 1);
  coordinator.enter(1, 1.8, true, -1);
  EXPECT_TRUE(coordinator.checkpoint_after(1, 2.1));
  EXPECT_TRUE(coordinator.checkpoint_after(1, 2.2));
  coordinator.written(0, 7, 2.35);
  EXPECT_EQ(coordinator.committed().number, 0); // rank 1 has not written yet
  coordinator.written(1, 9, 2.45);
  const CheckpointImage& image = coordinator.committed();
  EXPECT_EQ(image.number, 1);
  EXPECT_EQ(image.positions, (std::vector<uint64_t>{7, 9}));
  EXPECT_EQ(image.collectives, 2u);
  EXPECT_DOUBLE_EQ(image.cut, 2.1);
  EXPECT_DOUBLE_EQ(image.committed, 2.45);
  // Next due at 2.45 + 1.5 = 3.95: an entry at 3.9 is too early, one at 3.95 is not.
  coordinator.enter(2, 3.9, true, 0);
  coordinator.enter(2, 3.0, true, 0);
  EXPECT_FALSE(coordinator.checkpoint_after(2, 4.0));
  EXPECT_FALSE(coordinator.checkpoint_after(2, 4.0));
  coordinator.enter(3, 3.95, true, 0);
  coordinator.enter(3, 3.95, true, 0);
  EXPECT_TRUE(coordinator.checkpoint_after(3, 4.0));
  EXPECT_EQ(coordinator.completed().size(), 1u);
}

TEST(replay_checkpoints, NoCutWithAMessageInFlightARequestPendingOrARankNotYetEntered)
{
  CheckpointCoordinator coordinator(2, every(1), {}, 0);
  coordinator.enter(0, 2, true, 1); // a message sent, no receive posted for it yet
  coordinator.enter(0, 2, true, 0);
  EXPECT_FALSE(coordinator.checkpoint_after(0, 2.1));
  coordinator.enter(1, 3, false, 0); // a request pending
  coordinator.enter(1, 3, true, 0);
  EXPECT_FALSE(coordinator.checkpoint_after(1, 3.1));
  coordinator.enter(2, 4, true, 0); // rank 1 has not entered when rank 0 leaves: not a cut, for rank 1 either
  EXPECT_FALSE(coordinator.checkpoint_after(2, 4.1));
  coordinator.enter(2, 4.2, true, 0);
  EXPECT_FALSE(coordinator.checkpoint_after(2, 4.3));
}

TEST(replay_checkpoints, AnAttemptCountsTheIntervalFromItsStartAndKeepsTheCheckpointItResumedFrom)
{
  CheckpointImage from{3, {5, 5}, 4, 10, 10.25};
  CheckpointCoordinator coordinator(2, every(1), from, 20);
  coordinator.enter(4, 20.9, true, 0);
  coordinator.enter(4, 20.9, true, 0);
  EXPECT_FALSE(coordinator.checkpoint_after(4, 21)); // due at 21
  EXPECT_EQ(coordinator.committed().number, 3);
  coordinator.enter(5, 21, true, 0);
  coordinator.enter(5, 21, true, 0);
  EXPECT_TRUE(coordinator.checkpoint_after(5, 21.1));
  EXPECT_TRUE(coordinator.checkpoint_after(5, 21.1));
  coordinator.written(0, 11, 21.35);
  coordinator.written(1, 12, 21.35);
  EXPECT_EQ(coordinator.committed().number, 4);
  EXPECT_EQ(coordinator.committed().collectives, 6u);
}
