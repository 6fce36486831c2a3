// What polling calls cost (docs/specifications/polling.md): SimGrid's counters shared by all ranks (smpi rule), and
// the realistic rule's fixed cost with fast-forward of repeated unsuccessful polls, on cluster4
// (examples/replay-basic/cluster4.xml). A message of 1e6 B alone between two nodes takes
// T(1e6) = 0.015490655617065698 s under the SMPI model (mpi_p2p_test.cpp gives the formula).
#include "mpi/Rank.hpp"
#include "mpi/Simulation.hpp"

#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <vector>

using namespace mpisim;

namespace {

#define EXPECT_DATE(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::abs(expected) + 1e-15)

constexpr double kT1e6 = 0.015490655617065698;
constexpr double kPollCost = 1e-7;

void run(int ranks, mpi::PollingRule rule, const std::function<void(mpi::Rank&)>& main,
         mpi::Scheduling scheduling = mpi::Scheduling::RunToBlock)
{
  mpi::SimulationOptions options;
  options.platform = testing_support::cluster4();
  mpi::Simulation simulation(options, ranks);
  simulation.world().set_polling({.rule = rule, .poll_cost = kPollCost});
  simulation.world().set_scheduling(scheduling);
  simulation.world().launch(main);
  simulation.engine().run();
}

double now(mpi::Rank& rank)
{
  return rank.world().engine().now();
}
const mpi::Communicator& world(mpi::Rank& rank)
{
  return rank.world().comm_world();
}

// SimGrid's multiplier of smpi/test is one variable for all ranks. Rank 1's three failed tests (1e-4 + 2e-4 + 3e-4,
// ending at 6e-4) leave it at 4; rank 2, testing once at 1e-3, sleeps 4e-4 and ends at 1.4e-3 (1.1e-3 with a
// counter of its own).
TEST(mpi_polling, SmpiTestCounterIsSharedByAllRanks)
{
  double rank2_date = 0;
  run(3, mpi::PollingRule::Smpi, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      rank.sleep(1);
      rank.send(world(rank), 1, 0, 0);
      rank.send(world(rank), 2, 0, 0);
      return;
    }
    mpi::RequestPtr receive = rank.irecv(world(rank), 0, 0, 0);
    if (rank.world_rank() == 1) {
      for (int i = 0; i < 3; ++i)
        EXPECT_FALSE(rank.test(*receive));
      EXPECT_DATE(now(rank), 6e-4);
    } else {
      rank.sleep(1e-3);
      EXPECT_FALSE(rank.test(*receive));
      rank2_date = now(rank);
    }
    rank.wait(*receive);
  });
  EXPECT_DATE(rank2_date, 1.4e-3);
}

// SimGrid's rounds (same-date-order.md, "Rounds"): ranks 1 and 2 sleep until 1 s, then test, each test sleeping
// 1e-4 s first; at 1.0001 s rank 1 resumes first (its test's sleep was numbered last) and its test succeeds, rank 2's
// fails. Call by call, rank 1 resets the shared counter, posts a receive and tests it, while rank 2 raises the
// counter to 2 and tests again: rank 2's second test reads 2 before rank 1's does, so both sleep 2e-4 s and rank 1's
// ends at 1.0003 s. Run until each blocks, rank 1 reads the counter at 1 before rank 2 failed: 1.0002 s.
double second_test_end_of_rank_1(mpi::Scheduling scheduling)
{
  double rank1_date = 0;
  run(
      3, mpi::PollingRule::Smpi,
      [&](mpi::Rank& rank) {
        if (rank.world_rank() == 0) {
          rank.send(world(rank), 1, 0, 0); // arrives long before 1 s
          rank.sleep(5);
          rank.send(world(rank), 2, 0, 0);
          rank.send(world(rank), 1, 1, 0);
          return;
        }
        mpi::RequestPtr first = rank.irecv(world(rank), 0, 0, 0);
        rank.sleep(1);
        if (rank.world_rank() == 1) {
          EXPECT_TRUE(rank.test(*first));
          mpi::RequestPtr second = rank.irecv(world(rank), 0, 1, 0);
          EXPECT_FALSE(rank.test(*second));
          rank1_date = now(rank);
          rank.wait(*second);
        } else {
          EXPECT_FALSE(rank.test(*first));
          EXPECT_FALSE(rank.test(*first));
          EXPECT_DATE(now(rank), 1.0003);
          rank.wait(*first);
        }
      },
      scheduling);
  return rank1_date;
}

TEST(mpi_polling, SmpiRoundsInterleaveTheTestsOfOneDate)
{
  EXPECT_DATE(second_test_end_of_rank_1(mpi::Scheduling::SmpiRounds), 1.0003);
  EXPECT_DATE(second_test_end_of_rank_1(mpi::Scheduling::RunToBlock), 1.0002);
}

// SimGrid's MPI_Iprobe is a computation of n * 1e-4 s of the host's flops; MPI_Probe loops on it. A message sent at
// 0.25 s is found by the iprobe ending at the first triangular number of 1e-4 past it: 1e-4 * 71 * 72 / 2 = 0.2556.
TEST(mpi_polling, SmpiProbeIsALoopOfGrowingIprobes)
{
  double found = 0;
  run(2, mpi::PollingRule::Smpi, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 1) {
      rank.sleep(0.25);
      rank.send(world(rank), 0, 3, 8);
      return;
    }
    const mpi::Status status = rank.probe(world(rank), 1, 3);
    found = now(rank);
    EXPECT_EQ(status.bytes, 8);
    rank.recv(world(rank), 1, 3, 8);
  });
  EXPECT_DATE(found, 1e-4 * 71 * 72 / 2);
}

// Realistic: a loop of MPI_Test on a 1e6 B receive returns one poll cost after the blocking receive would, after one
// unsuccessful test (the second one is a repeat: fast-forwarded to the completion, it succeeds).
TEST(mpi_polling, RealisticTestLoopCostsTheBlockingReceivePlusOnePoll)
{
  int unsuccessful = 0;
  double done = 0;
  run(2, mpi::PollingRule::Realistic, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 1) {
      rank.send(world(rank), 0, 0, 1e6);
      return;
    }
    mpi::RequestPtr receive = rank.irecv(world(rank), 1, 0, 1e6);
    while (not rank.test(*receive))
      ++unsuccessful;
    done = now(rank);
  });
  EXPECT_EQ(unsuccessful, 1);
  EXPECT_DATE(done, kT1e6 + kPollCost);
}

// Realistic: an iprobe loop sees a message one poll cost after it was sent (at 0.5 s), however long it waited.
TEST(mpi_polling, RealisticIprobeLoopSeesTheMessageOnePollLater)
{
  int unsuccessful = 0;
  double found = 0;
  run(2, mpi::PollingRule::Realistic, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 1) {
      rank.sleep(0.5);
      rank.send(world(rank), 0, 4, 8);
      return;
    }
    std::optional<mpi::Status> status;
    while (not(status = rank.iprobe(world(rank), 1, 4)))
      ++unsuccessful;
    found = now(rank);
    EXPECT_EQ(status->tag, 4);
    rank.recv(world(rank), 1, 4, 8);
  });
  EXPECT_EQ(unsuccessful, 1);
  EXPECT_DATE(found, 0.5 + kPollCost);
}

// Realistic: a rank that computes between polls is not fast-forwarded: 1 ms of computation (1e6 flops on a 1 Gf
// host) and one poll per iteration until the 1e6 B receive (T = 15.49 ms) completes: 16 iterations, the last test
// ending at 16 * (1e-3 + 1e-7).
TEST(mpi_polling, RealisticComputationBetweenPollsIsNotSkipped)
{
  int iterations = 0;
  double done = 0;
  run(2, mpi::PollingRule::Realistic, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 1) {
      rank.send(world(rank), 0, 0, 1e6);
      return;
    }
    mpi::RequestPtr receive = rank.irecv(world(rank), 1, 0, 1e6);
    do {
      rank.compute(1e6);
      ++iterations;
    } while (not rank.test(*receive));
    done = now(rank);
  });
  EXPECT_EQ(iterations, 16);
  EXPECT_DATE(done, 16 * (1e-3 + kPollCost));
}

// Realistic: polls alternating between two receives are fast-forwarded at the first repeat (the third test, of
// receive 0) to whichever completes first: the one from rank 2, sent at 0.1 s (0-B messages take
// T(0) = 0.00120895961916255). That test, one poll cost later, still fails; the next one, of receive 1, succeeds.
TEST(mpi_polling, RealisticAlternatingPollsWaitForEitherChange)
{
  std::vector<int> first;
  run(3, mpi::PollingRule::Realistic, [&](mpi::Rank& rank) {
    if (rank.world_rank() != 0) {
      rank.sleep(rank.world_rank() == 1 ? 1.0 : 0.1);
      rank.send(world(rank), 0, 0, 0);
      return;
    }
    std::vector<mpi::RequestPtr> receives = {rank.irecv(world(rank), 1, 0, 0), rank.irecv(world(rank), 2, 0, 0)};
    while (first.empty())
      for (int i : {0, 1})
        if (rank.test(*receives[i]))
          first.push_back(i);
    EXPECT_DATE(now(rank), 0.1 + 0.00120895961916255 + 2 * kPollCost);
    rank.wait(*receives[0]);
  });
  EXPECT_EQ(first, std::vector<int>{1});
}

// Realistic: a bounded loop of polls whose way out is what the awaited message needs. Rank 0 probes 10 times for a
// message rank 1 sends only after receiving one from rank 0 (sent after the loop): fast-forwarded at the second
// probe, then released when every rank waits (at 2e-7: the release costs nothing more), it probes 8 more times
// (10 probes in all: 1e-6 s) and goes on.
TEST(mpi_polling, RealisticBoundedLoopIsReleasedWhenEveryRankWaits)
{
  int probes = 0;
  double loop_end = 0;
  run(2, mpi::PollingRule::Realistic, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 1) {
      rank.recv(world(rank), 0, 6, 4);
      rank.send(world(rank), 0, 5, 4);
      return;
    }
    bool found = false;
    for (; probes < 10 && not found; ++probes)
      found = rank.iprobe(world(rank), 1, 5).has_value();
    loop_end = now(rank);
    rank.send(world(rank), 1, 6, 4);
    rank.recv(world(rank), 1, 5, 4);
  });
  EXPECT_EQ(probes, 10);
  EXPECT_DATE(loop_end, 10 * kPollCost);
}

} // namespace
