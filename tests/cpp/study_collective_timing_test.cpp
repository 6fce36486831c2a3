// Timing one collective in isolation (the building block of `mpisim study coll`), on closed-form cases.
#include "common/Errors.hpp"
#include "study/CollectiveTiming.hpp"

#include <gtest/gtest.h>

using namespace mpisim;

namespace {

study::CollectiveTiming on_star(const std::string& operation, int ranks, double bytes)
{
  study::CollectiveTiming timing;
  timing.simulation.platform = "cluster:" + std::to_string(ranks) + ",bw=1GBps,lat=0s";
  timing.simulation.model = "fluid"; // time = size / bandwidth, no latency, no factors
  timing.operation = operation;
  timing.ranks = ranks;
  timing.bytes = bytes;
  return timing;
}

// Binomial bcast of 1e6 B on 8 ranks of a star of 1 GBps links: 3 steps of 1 ms (one message per link per step).
TEST(study_collective_timing, BinomialBcastOnAStar)
{
  study::CollectiveTiming timing = on_star("bcast", 8, 1e6);
  timing.simulation.collective_algorithms["bcast"] = "binomial_tree";
  EXPECT_NEAR(study::time_collective(timing), 3e-3, 1e-12);
}

// Alltoall of 1e6-B blocks on 8 ranks, pairwise: 7 steps of one 1 ms exchange each; bruck: 3 steps of 4 blocks.
TEST(study_collective_timing, AlltoallAlgorithmsOnAStar)
{
  study::CollectiveTiming timing = on_star("alltoall", 8, 1e6);
  timing.simulation.collective_algorithms["alltoall"] = "pair";
  EXPECT_NEAR(study::time_collective(timing), 7e-3, 1e-12);
  timing.simulation.collective_algorithms["alltoall"] = "bruck";
  EXPECT_NEAR(study::time_collective(timing), 12e-3, 1e-12);
}

// One rank: nothing to send, no time.
TEST(study_collective_timing, OneRankTakesNoTime)
{
  EXPECT_EQ(study::time_collective(on_star("allreduce", 1, 1e6)), 0.0);
}

TEST(study_collective_timing, BadArgumentsAreInputErrors)
{
  EXPECT_THROW(study::time_collective(on_star("alltoal", 4, 10)), InputError);
  EXPECT_THROW(study::time_collective(on_star("alltoall", 0, 10)), InputError);
  study::CollectiveTiming timing = on_star("bcast", 4, 10);
  timing.root = 4;
  EXPECT_THROW(study::time_collective(timing), InputError);
  timing.root = 0;
  timing.simulation.collective_algorithms["bcast"] = "no_such_algorithm";
  EXPECT_THROW(study::time_collective(timing), InputError);
}

} // namespace
