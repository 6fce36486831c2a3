// Expected messages of the allreduce algorithms on 5 ranks, one per host (B = 1000 B, one-byte elements: n = 1000;
// the library's own choices are the default selector's: alltoall basic_linear and allgather linear_nbc on 5 ranks,
// every ordered pair once). Each list is derived by hand from the algorithm's definition (its header).
#include "mpi/Simulation.hpp"
#include "support/CollectiveMessages.hpp"
#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

constexpr int P = 5;

Messages both_ways(int a, int b, double bytes)
{
  return {{a, b, bytes}, {b, a, bytes}};
}

// Fold of 5 ranks onto pof2 = 4: rank 0 gives its vector to 1 first and gets the result back last; new ranks
// 0, 1, 2, 3 are ranks 1, 2, 3, 4.
Messages fold_of_five()
{
  return {{0, 1, B}, {1, 0, B}};
}

// rdb: after the fold, mask 1 pairs new ranks 0-1, 2-3 (ranks 1-2, 3-4), mask 2 pairs 0-2, 1-3 (ranks 1-3, 2-4);
// every exchange is the whole vector both ways.
Messages rdb()
{
  return fold_of_five() + both_ways(1, 2, B) + both_ways(3, 4, B) + both_ways(1, 3, B) + both_ways(2, 4, B);
}
const ExpectMessages kRdb("allreduce/rdb", rdb);

// rab_rdb: after the fold, 4 blocks of 250 B. Reduce-scatter: mask 1 exchanges halves (500 B) between ranks 1-2 and
// 3-4, mask 2 quarters (250 B) between ranks 1-3 and 2-4. The allgather does the same exchanges again in reverse
// order with the same sizes.
Messages rab_rdb()
{
  const Messages halves = both_ways(1, 2, B / 2) + both_ways(3, 4, B / 2);
  const Messages quarters = both_ways(1, 3, B / 4) + both_ways(2, 4, B / 4);
  return fold_of_five() + halves + quarters + quarters + halves;
}
const ExpectMessages kRabRdb("allreduce/rab_rdb", rab_rdb);
// rab1: 5 is not a power of two: rab_rdb.
const ExpectMessages kRab1("allreduce/rab1", rab_rdb);

// lr: n = 1000 is a multiple of 5: blocks of 200 B, 4 reduce-scatter and 4 allgather steps, each rank sending one
// block to its right neighbour per step.
Messages lr()
{
  Messages out;
  for (int me = 0; me < P; ++me)
    for (int i = 0; i < 2 * (P - 1); ++i)
      out.push_back({me, (me + 1) % P, B / P});
  return out;
}
const ExpectMessages kLr("allreduce/lr", lr);

// rab2: blocks of n / 5 = 200 B: an alltoall then an allgather, each every ordered pair once.
Messages rab2()
{
  return all_pairs(P, [](int, int) { return B / P; }) + all_pairs(P, [](int, int) { return B / P; });
}
const ExpectMessages kRab2("allreduce/rab2", rab2);

// The smp_* algorithms see one rank per node here (cores = 1, 5 nodes): only the leaders' stages send.
// smp_binomial: binomial reduce onto 0 (mask 1: 1->0, 3->2; mask 2: 2->0; mask 4: 4->0), then binomial broadcast
// from 0 (0->4, 0->2, 0->1; 2->3), all B.
Messages smp_binomial()
{
  return Messages{{1, 0, B}, {3, 2, B}, {2, 0, B}, {4, 0, B}} + Messages{{0, 4, B}, {0, 2, B}, {0, 1, B}, {2, 3, B}};
}
const ExpectMessages kSmpBinomial("allreduce/smp_binomial", smp_binomial);
// smp_binomial_pipeline: n = 1000 < 4096, a single segment of 1000 B: smp_binomial's messages.
const ExpectMessages kSmpBinomialPipeline("allreduce/smp_binomial_pipeline", smp_binomial);
// smp_rdb: the leaders (all ranks) run rdb.
const ExpectMessages kSmpRdb("allreduce/smp_rdb", rdb);

// smp_rsag, smp_rsag_lr: the leaders' ring over 5 blocks of 200 B (n mod 5 = 0): lr's messages.
const ExpectMessages kSmpRsag("allreduce/smp_rsag", lr);
const ExpectMessages kSmpRsagLr("allreduce/smp_rsag_lr", lr);
// smp_rsag_rab: 5 is not a power of two: smp_rdb, that is rdb's messages.
const ExpectMessages kSmpRsagRab("allreduce/smp_rsag_rab", rdb);

// mvapich2_rs: n = 1000 >= pof2 = 4: rab_rdb's messages.
const ExpectMessages kMvapich2Rs("allreduce/mvapich2_rs", rab_rdb);
// mvapich2_two_level: each node has one rank (no intra-node message), so the leaders' rdb over all 5 ranks.
const ExpectMessages kMvapich2TwoLevel("allreduce/mvapich2_two_level", rdb);

// ompi_ring_segmented: n = 1000 < 5 * 1000 (the segment is the whole vector, below 1 MiB): lr's messages.
const ExpectMessages kOmpiRingSegmented("allreduce/ompi_ring_segmented", lr);

// rab: 2^2 <= 5, r = 1: ranks 0 and 1 swap halves (0->1 the upper 500 B, 1->0 the lower 500 B) and 1 sends its
// reduced half to 0 (500 B). New ranks 0, 1, 2, 3 are ranks 0, 2, 3, 4. Halving: distance 1 pairs ranks 0-2 and 3-4
// (500 B each way), distance 2 pairs ranks 0-3 and 2-4 (250 B each way); the allgather repeats these in reverse
// order; last, 0 sends the whole result to 1.
Messages rab()
{
  const Messages halving = both_ways(0, 2, B / 2) + both_ways(3, 4, B / 2);
  const Messages quartering = both_ways(0, 3, B / 4) + both_ways(2, 4, B / 4);
  return Messages{{0, 1, B / 2}, {1, 0, B / 2}, {1, 0, B / 2}} + halving + quartering + quartering + halving +
         Messages{{0, 1, B}};
}
const ExpectMessages kRab("allreduce/rab", rab);

// ompi_ring_segmented's pipelined path, on 3 ranks with n = 6 MiB + 7 one-byte elements: segments of 1 MiB,
// phases = floor(n / 3 MiB) = 2 (the remainder 7 is not above 1.5 MiB). Blocks: n = 3 * 2097154 + 1, so block 0
// has 2097155 elements, blocks 1 and 2 have 2097154; each splits into 2 phase segments (block 0: 1048578 then
// 1048577; the others 1048577 twice). In each phase rank r sends its own block's segment then that of block r + 2
// to rank r + 1; the allgather sends block r + 1 then block r.
TEST(mpi_coll_allreduce, OmpiRingSegmentedPipelinesOverPhases)
{
  const double n = 6.0 * (1 << 20) + 7;
  const CollectiveRun run =
      run_collective(mpi::Collective::Allreduce, "ompi_ring_segmented", 3, "test-counting", "", [&](int) {
        mpi::CollectiveCall call;
        call.op = mpi::Collective::Allreduce;
        call.bytes = n;
        return call;
      });
  const double b0 = 2097155, b = 2097154, s0 = 1048578, s = 1048577;
  Messages expected = {{0, 1, s0}, {0, 1, s},  {1, 2, s}, {1, 2, s0}, {2, 0, s},  {2, 0, s},  // phase 0
                       {0, 1, s},  {0, 1, s},  {1, 2, s}, {1, 2, s},  {2, 0, s},  {2, 0, s},  // phase 1
                       {0, 1, b},  {0, 1, b0}, {1, 2, b}, {1, 2, b},  {2, 0, b0}, {2, 0, b}}; // allgather
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(run.messages, expected);
}

// ompi_ring_segmented, as specified (docs/specifications/ompi-topology-trees.md): the sizes each rank sends, in the
// order it sends them (every message goes to rank + 1), on 4 ranks with n one-byte elements.
CollectiveRun ring_segmented_run(const std::string& algorithm, int ranks, double n, bool commutative = true)
{
  return run_collective(mpi::Collective::Allreduce, algorithm, ranks, "test-counting", "", [&](int) {
    mpi::CollectiveCall call;
    call.op = mpi::Collective::Allreduce;
    call.bytes = n;
    call.commutative = commutative;
    return call;
  });
}

std::vector<std::vector<double>> sends_in_order(int ranks, double n)
{
  ring_segmented_run("ompi_ring_segmented", ranks, n);
  std::vector<std::vector<double>> sends(static_cast<size_t>(ranks));
  for (const Sent& message : traffic()) { // in the order the transfers started; each rank's sends are blocking
    EXPECT_EQ(message.destination, (message.source + 1) % ranks);
    sends[static_cast<size_t>(message.source)].push_back(message.bytes);
  }
  return sends;
}

// n = 8 MiB + 6: 2 phases; blocks 0 and 1 have 2097154 elements (segments 1048577 twice), blocks 2 and 3 2097153
// (segments 1048577 then 1048576). Per phase, rank r sends segment j of blocks r, r - 1, r - 2; then the allgather
// sends blocks r + 1, r, r - 1.
TEST(mpi_coll_allreduce, OmpiRingSegmentedStepsOfTheSpecification)
{
  const double s = 1048577, t = 1048576, b = 2097154, c = 2097153;
  const std::vector<std::vector<double>> expected = {
      {s, s, s, s, t, t, b, b, c},
      {s, s, s, s, s, t, c, b, b},
      {s, s, s, t, s, s, c, c, b},
      {s, s, s, t, t, s, b, c, c},
  };
  EXPECT_EQ(sends_in_order(4, 8388614), expected);
}

// n = 6 MiB + 1: the rest 2097153 is above half a round (2097152): 2 phases. Block 0 has 1572865 elements (segments
// 786433 and 786432), blocks 1-3 1572864 (786432 twice).
TEST(mpi_coll_allreduce, OmpiRingSegmentedExtraPhaseForALargeRest)
{
  const double s = 786433, t = 786432, b = 1572865, c = 1572864;
  const std::vector<std::vector<double>> expected = {
      {s, t, t, t, t, t, c, b, c},
      {t, s, t, t, t, t, c, c, b},
      {t, t, s, t, t, t, c, c, c},
      {t, t, t, t, t, t, b, c, c},
  };
  EXPECT_EQ(sends_in_order(4, 6291457), expected);
}

// Phases = sends per rank / 3 - 1 on 4 ranks: a rest of exactly half a round takes no phase of its own.
TEST(mpi_coll_allreduce, OmpiRingSegmentedPhaseCounts)
{
  for (const auto& [n, phases] : std::vector<std::pair<double, size_t>>{{4194304, 1}, {6291456, 1}, {8388614, 2}})
    for (const std::vector<double>& sends : sends_in_order(4, n))
      EXPECT_EQ(sends.size(), 3 * phases + 3) << "n = " << n;
  // One phase of 6 MiB: blocks of 1572864 elements, sent whole in the phase and in the allgather.
  for (const std::vector<double>& sends : sends_in_order(4, 6291456))
    EXPECT_EQ(sends, std::vector<double>(6, 1572864));
}

// Below P segments' worth of elements (or empty) it is lr; a non-commutative operation runs redbcast; one rank sends
// nothing.
TEST(mpi_coll_allreduce, OmpiRingSegmentedFallbacks)
{
  for (double n : {4194303.0, 1000.0, 0.0})
    EXPECT_EQ(ring_segmented_run("ompi_ring_segmented", 4, n).messages, ring_segmented_run("lr", 4, n).messages)
        << "n = " << n;
  EXPECT_EQ(ring_segmented_run("ompi_ring_segmented", 4, 8388614, false).messages,
            ring_segmented_run("redbcast", 4, 8388614, false).messages);
  EXPECT_TRUE(ring_segmented_run("ompi_ring_segmented", 1, 8388614).messages.empty());
}

// The thresholds count elements, not bytes: with 8-byte elements a segment is 131072 elements, and 5 ranks need
// 655360 of them (5 MiB) for the pipelined path: one phase of 5 blocks of one segment, 4 + 4 sends per rank to the
// next rank. One element less runs lr.
TEST(mpi_coll_allreduce, OmpiRingSegmentedCountsElements)
{
  auto run_doubles = [](const std::string& algorithm, double n) {
    return run_collective(mpi::Collective::Allreduce, algorithm, 5, "test-counting", "", [&](int) {
      mpi::CollectiveCall call;
      call.op = mpi::Collective::Allreduce;
      call.bytes = 8 * n;
      call.element_bytes = 8;
      return call;
    });
  };
  Messages pipelined;
  for (int rank = 0; rank < 5; ++rank)
    for (int send = 0; send < 8; ++send)
      pipelined.push_back({rank, (rank + 1) % 5, 8 * 131072.0});
  std::sort(pipelined.begin(), pipelined.end());
  EXPECT_EQ(run_doubles("ompi_ring_segmented", 655360).messages, pipelined);
  EXPECT_EQ(run_doubles("ompi_ring_segmented", 655359).messages, run_doubles("lr", 655359).messages);
}

// The SMP-aware algorithms on 8 ranks, 4 per host (hosts 0 and 1, ranks 0-3 and 4-7; leaders 0 and 4), as messages
// between hosts (a message inside a host shows as h -> h), n = 1000 one-byte elements. SimGrid 3.32 aborts when
// replaying these algorithms, so these hand-derived lists are their only check of the two-level structure.
Messages on_two_nodes(const std::string& algorithm)
{
  Scratch scratch;
  traffic().clear();
  mpi::SimulationOptions options;
  options.platform = "cluster:2";
  options.model = "test-counting";
  options.hostfile = scratch.write("hosts.txt", "node-0:4\nnode-1:4\n");
  options.collective_algorithms["allreduce"] = algorithm;
  mpi::Simulation simulation(options, 8);
  simulation.world().launch([&](mpi::Rank& rank) {
    simulation.collectives().run(rank, rank.world().comm_world(), call_for(mpi::Collective::Allreduce, 0, 8));
  });
  simulation.engine().run();
  Messages out = traffic();
  std::sort(out.begin(), out.end());
  return out;
}

Messages times(int count, Sent message)
{
  return Messages(static_cast<size_t>(count), message);
}

void expect_on_two_nodes(const std::string& algorithm, Messages expected)
{
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(on_two_nodes(algorithm), expected) << algorithm;
}

// Binomial reduce onto core 0 in each node of 4 (1->0, 3->2, then 2->0) and binomial broadcast back (0->2, then
// 0->1, 2->3): 6 whole-vector messages inside each host.
Messages binomial_in_nodes()
{
  return times(6, {0, 0, B}) + times(6, {1, 1, B});
}

// smp_binomial: the leaders' binomial reduce (4 -> 0) and broadcast (0 -> 4). smp_binomial_pipeline: n < 4096, one
// segment, the same. smp_rdb: the 2 leaders' recursive doubling is one exchange, the same messages.
TEST(mpi_coll_allreduce, SmpBinomialFamilyOnTwoNodes)
{
  const Messages expected = binomial_in_nodes() + Messages{{0, 1, B}, {1, 0, B}};
  expect_on_two_nodes("smp_binomial", expected);
  expect_on_two_nodes("smp_binomial_pipeline", expected);
  expect_on_two_nodes("smp_rdb", expected);
}

// smp_rsag, smp_rsag_lr: the leaders' ring over 2 blocks of 500 B, one reduce-scatter and one allgather step each
// way. smp_rsag_rab: the leaders swap halves (500 B) then, in the allgather, their reduced halves (500 B).
TEST(mpi_coll_allreduce, SmpRsagFamilyOnTwoNodes)
{
  const Messages expected = binomial_in_nodes() + times(2, {0, 1, B / 2}) + times(2, {1, 0, B / 2});
  expect_on_two_nodes("smp_rsag", expected);
  expect_on_two_nodes("smp_rsag_lr", expected);
  expect_on_two_nodes("smp_rsag_rab", expected);
}

// mvapich2_two_level: rdb inside each node of 4 (1000 B <= 2048: MPICH's choice), 2 steps of 4 messages; the
// leaders' rdb (one exchange); the default bcast (binomial_tree) from core 0 inside each node, 3 messages.
TEST(mpi_coll_allreduce, Mvapich2TwoLevelOnTwoNodes)
{
  expect_on_two_nodes("mvapich2_two_level",
                      times(11, {0, 0, B}) + times(11, {1, 1, B}) + Messages{{0, 1, B}, {1, 0, B}});
}

// Data on the long-vector paths the generic data test does not reach: sums of 32-bit words over P ranks (rank r's
// word k is r * 1000003 + k), checked at every rank.
void expect_sums(const std::string& algorithm, int P, int ranks_per_host, size_t words)
{
  Scratch scratch;
  mpi::SimulationOptions options;
  options.model = "fluid";
  options.collective_algorithms["allreduce"] = algorithm;
  const int hosts = (P + ranks_per_host - 1) / ranks_per_host;
  options.platform = "cluster:" + std::to_string(hosts);
  std::string hostfile;
  for (int h = 0; h < hosts; ++h)
    hostfile += "node-" + std::to_string(h) + ":" + std::to_string(ranks_per_host) + "\n";
  options.hostfile = scratch.write("hosts.txt", hostfile);
  std::vector<std::vector<uint32_t>> in(P, std::vector<uint32_t>(words)), out(P, std::vector<uint32_t>(words));
  for (int r = 0; r < P; ++r)
    for (size_t k = 0; k < words; ++k)
      in[r][k] = static_cast<uint32_t>(r * 1000003u + k);
  mpi::Simulation simulation(options, P);
  simulation.world().launch([&](mpi::Rank& rank) {
    const int me = rank.world_rank();
    mpi::CollectiveCall call;
    call.op = mpi::Collective::Allreduce;
    call.bytes = 4.0 * static_cast<double>(words);
    call.element_bytes = 4;
    call.with_data = true;
    call.send_data = reinterpret_cast<const std::byte*>(in[me].data());
    call.recv_data = reinterpret_cast<std::byte*>(out[me].data());
    call.reduce_type = mpi::Datatype::predefined(mpi::Element::Unsigned);
    call.reduce_op = mpi::ReduceOp::predefined(mpi::ReduceOperation::Sum);
    simulation.collectives().run(rank, rank.world().comm_world(), call);
  });
  simulation.engine().run();
  for (int r = 0; r < P; ++r)
    for (size_t k = 0; k < words; ++k) {
      uint32_t sum = 0;
      for (int q = 0; q < P; ++q)
        sum += in[q][k];
      ASSERT_EQ(out[r][k], sum) << algorithm << ": rank " << r << ", word " << k;
    }
}

// ompi_ring_segmented: 1 MiB segments are 262144 words; 2 * 3 * 262144 + 5 words on 3 ranks make 2 phases with
// uneven blocks and segments. smp_binomial_pipeline: 3 segments of 4096 words and a 7-word tail, on 2 nodes of 4.
TEST(mpi_coll_allreduce, LongVectorPathsSum)
{
  expect_sums("ompi_ring_segmented", 3, 1, 2 * 3 * 262144 + 5);
  // 4 ranks: 2 phases with a rest of 6 words (not above half a round); 5 ranks: 1 phase plus one for the rest of
  // 3 * 262144 + 1 words (above half a round); 2 ranks: 3 phases.
  expect_sums("ompi_ring_segmented", 4, 1, 2 * 4 * 262144 + 6);
  expect_sums("ompi_ring_segmented", 5, 1, 5 * 262144 + 3 * 262144 + 1);
  expect_sums("ompi_ring_segmented", 2, 1, 3 * 2 * 262144 + 7);
  expect_sums("smp_binomial_pipeline", 8, 4, 3 * 4096 + 7);
  expect_sums("smp_rsag", 8, 4, 3 * 4096 + 7);
}

} // namespace
