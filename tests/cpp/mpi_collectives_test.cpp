// Collective algorithms and the default selector.
//
// 1. Every registered algorithm sends exactly the messages its definition says. A test-only network model
//    ("test-counting": the fluid model, recording each transfer) lists the messages of one collective; with one rank
//    per host, host i is rank i. The expected lists below are worked out by hand from each algorithm's header.
// 2. Completion dates on a platform where each message costs B / bw: the fluid model (time = L + S/B, no factor, no
//    envelope) on a star cluster with zero latency and 1 GBps split-duplex private links, so a message of B bytes
//    alone on its links takes B / 1e9 s, and k messages sharing an uplink (or a downlink) take k * B / 1e9 s.
// 3. The default selector's choices, including Open MPI's alltoall decision table checked against SimGrid 3.32's
//    alltoall__ompi (its ompi selector), and the errors for unknown names.
//
// Suite names start with "mpi" so that `ctest -R mpi` selects them.
#include "common/Errors.hpp"
#include "models/NetworkModel.hpp"
#include "mpi/Rank.hpp"
#include "mpi/Simulation.hpp"
#include "mpi/collectives/Collectives.hpp"
#include "support/CollectiveMessages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

// The messages of each algorithm on 5 ranks (P = 5, root 2, B = 1000 B; see call_for for the v-variants' sizes).
//   barrier ompi_basic_linear: 1..4 -> 0 then 0 -> 1..4, all empty.
//   bcast binomial_tree, root 2: relative ranks r = (me - 2) mod 5; the root sends to r = 4, 2, 1 (ranks 1, 4, 3),
//     r = 2 (rank 4) forwards to r = 3 (rank 0): 2->1, 2->4, 2->3, 4->0.
//   reduce/gather(v) linear_nbc: every other rank -> root; scatter(v): root -> every other rank.
//   allreduce redbcast: reduce to rank 0 (1..4 -> 0), then binomial bcast from 0: 0->4, 0->2, 0->1, 2->3.
//   alltoall basic_linear and pair (5 is not a power of two: step i sends to me+i): every ordered pair once, B.
//   alltoall bruck: steps at distance 1, 2, 4; at distance d, the blocks whose index in 1..4 has bit d set
//     (d=1: 1,3; d=2: 2,3; d=4: 4): me -> me+1 2B, me -> me+2 2B, me -> me+4 1B.
//   alltoallv/allgather(v) linear_nbc: every ordered pair once, with the sender's size for that peer.
//   reduce_scatter reduce_scatterv: counts 10..50: reduce of 150 B to rank 0, then scatterv of 10*(i+1) to rank i.
//   reduce_scatter mpich_pair: step i sends to me+i the block that rank keeps: every ordered pair, 10*(dst+1).
//   reduce_scatter mpich_rdb (counts c = 10, 20, 30, 40, 50; total 150): each exchange sends the blocks outside the
//     sender's subtree and receives those outside the partner's.
//     mask 1: 0<->1 (0->1: 150-10 = 140, 1->0: 130), 2<->3 (120, 110); rank 4 has no partner.
//     mask 2: 0<->2 (0->2: c2+c3+c4 = 120, 2->0: c0+c1+c4 = 80), 1<->3 (120, 80).
//     mask 4: 0<->4 (0->4: c4 = 50, 4->0: c0..c3 = 100); subtree {0..3} has one rank with the data (0): it passes
//     the 100 B down by halving: 0->2, 0->1, then 2->3.
//   scan, exscan linear: me -> every higher rank, B.
//   bcast linear_nbc: root -> every other rank, B. alltoall and allreduce linear_nbc: every ordered pair once, B.
//   reduce_scatter linear_nbc: every ordered pair once, the destination's block.
Messages expected_on_five(mpi::Collective op, const std::string& algorithm)
{
  const int P = 5;
  const std::string key = std::string(mpi::collective_name(op)) + "/" + algorithm;
  auto every_pair_B = [&] { return all_pairs(P, [](int, int) { return B; }); };
  if (key == "barrier/ompi_basic_linear")
    return to_root(P, 0, [](int) { return 0.0; }) + from_root(P, 0, [](int) { return 0.0; });
  if (key == "bcast/binomial_tree")
    return {{2, 1, B}, {2, 4, B}, {2, 3, B}, {4, 0, B}};
  if (key == "reduce/linear_nbc" || key == "gather/linear_nbc")
    return to_root(P, kRoot, [](int) { return B; });
  if (key == "gatherv/linear_nbc")
    return to_root(P, kRoot, [](int i) { return 10.0 * (i + 1); });
  if (key == "bcast/linear_nbc")
    return from_root(P, kRoot, [](int) { return B; });
  if (key == "alltoall/linear_nbc")
    return every_pair_B();
  if (key == "allreduce/linear_nbc")
    return every_pair_B();
  if (key == "reduce_scatter/linear_nbc") // each rank sends rank j its block of 10*(j+1) B
    return all_pairs(P, [](int, int destination) { return 10.0 * (destination + 1); });
  if (key == "scatter/linear_nbc")
    return from_root(P, kRoot, [](int) { return B; });
  if (key == "scatterv/linear_nbc")
    return from_root(P, kRoot, [](int i) { return 10.0 * (i + 1); });
  if (key == "allreduce/redbcast")
    return to_root(P, 0, [](int) { return B; }) + Messages{{0, 4, B}, {0, 2, B}, {0, 1, B}, {2, 3, B}};
  if (key == "alltoall/basic_linear" || key == "alltoall/pair" || key == "allgather/linear_nbc")
    return every_pair_B();
  if (key == "alltoall/bruck") {
    Messages out;
    for (int me = 0; me < P; ++me)
      out = out + Messages{{me, (me + 1) % P, 2 * B}, {me, (me + 2) % P, 2 * B}, {me, (me + 4) % P, B}};
    return out;
  }
  if (key == "alltoallv/linear_nbc")
    return all_pairs(P, [](int i, int j) { return 100.0 * i + j + 1; });
  if (key == "allgatherv/linear_nbc")
    return all_pairs(P, [](int i, int) { return 10.0 * (i + 1); });
  if (key == "reduce_scatter/reduce_scatterv")
    return to_root(P, 0, [](int) { return 150.0; }) + from_root(P, 0, [](int i) { return 10.0 * (i + 1); });
  if (key == "reduce_scatter/mpich_pair")
    return all_pairs(P, [](int, int destination) { return 10.0 * (destination + 1); });
  if (key == "reduce_scatter/mpich_rdb")
    return {{0, 1, 140}, {1, 0, 130}, {2, 3, 120}, {3, 2, 110}, {0, 2, 120}, {2, 0, 80}, {1, 3, 120},
            {3, 1, 80},  {0, 4, 50},  {4, 0, 100}, {0, 2, 100}, {0, 1, 100}, {2, 3, 100}};
  if (key == "scan/linear" || key == "exscan/linear") {
    Messages out;
    for (int i = 0; i < P; ++i)
      for (int j = i + 1; j < P; ++j)
        out.push_back({i, j, B});
    return out;
  }
  const auto found = testing_support::expected_messages().find(key);
  if (found != testing_support::expected_messages().end())
    return found->second();
  ADD_FAILURE() << "no expectation written for " << key
                << ": register it (testing_support::ExpectMessages) in the operation's mpi_coll_<op>_test.cpp";
  return {};
}

// Every registered algorithm of every operation, forced by name, sends what its definition says.
TEST(mpi_collectives_algorithms, EveryAlgorithmSendsWhatItsDefinitionSays)
{
  int checked = 0;
  for (size_t i = 0; i < mpi::kCollectiveCount; ++i) {
    const auto op = static_cast<mpi::Collective>(i);
    for (const mpi::AlgorithmEntry* algorithm : mpi::AlgorithmRegistry::of(op)) {
      SCOPED_TRACE(std::string(mpi::collective_name(op)) + "/" + algorithm->name);
      Messages expected = expected_on_five(op, algorithm->name);
      std::sort(expected.begin(), expected.end());
      const CollectiveRun run = run_collective(op, algorithm->name, 5);
      EXPECT_EQ(run.messages, expected) << "got:\n" << describe(run.messages) << "expected:\n" << describe(expected);
      for (double date : run.returned)
        EXPECT_GE(date, 0.0); // every rank returned
      ++checked;
    }
  }
  EXPECT_GE(checked, 21); // the algorithms registered when this test was written
}

// Power-of-two sizes take other branches: on 8 ranks, binomial bcast from 0 is 0->4, 0->2, 0->1, 4->6, 4->5, 2->3,
// 6->7; bruck sends 4 blocks at each distance 1, 2, 4 (indices 1..7 with the bit set); pair exchanges with me XOR i
// (every ordered pair once).
TEST(mpi_collectives_algorithms, PowerOfTwoBranches)
{
  auto make = [](mpi::Collective op) { return [op](int me) { return call_for(op, me, 8); }; };
  {
    Messages expected = {{0, 4, B}, {0, 2, B}, {0, 1, B}, {4, 6, B}, {4, 5, B}, {2, 3, B}, {6, 7, B}};
    std::sort(expected.begin(), expected.end());
    auto call = [](int me) {
      mpi::CollectiveCall c = call_for(mpi::Collective::Bcast, me, 8);
      c.root = 0;
      return c;
    };
    EXPECT_EQ(run_collective(mpi::Collective::Bcast, "binomial_tree", 8, "test-counting", "", call).messages, expected);
  }
  {
    Messages expected;
    for (int me = 0; me < 8; ++me)
      for (int d : {1, 2, 4})
        expected.push_back({me, (me + d) % 8, 4 * B});
    std::sort(expected.begin(), expected.end());
    const auto alltoall = make(mpi::Collective::Alltoall);
    EXPECT_EQ(run_collective(mpi::Collective::Alltoall, "bruck", 8, "test-counting", "", alltoall).messages, expected);
    EXPECT_EQ(run_collective(mpi::Collective::Alltoall, "pair", 8, "test-counting", "", alltoall).messages,
              all_pairs(8, [](int, int) { return B; }));
  }
}

// ------------------------------------------------------------------------------------------------------------------
// Dates on a star of 1 GBps links with no latency (fluid model): a lone message of 1e6 B takes 1e6/1e9 = 1 ms; it is
// a rendezvous (>= 64 KiB), so a blocking send returns when its data has arrived.
// ------------------------------------------------------------------------------------------------------------------

const char* kStar = "cluster:8,bw=1GBps,lat=0s";

mpi::CollectiveCall megabyte(mpi::Collective op, int me)
{
  mpi::CollectiveCall call = call_for(op, me, 8);
  call.root = 0;
  call.bytes = 1e6;
  call.recv_bytes = 1e6;
  return call;
}

// Binomial bcast on 8 ranks, one message per link per step: step 1 0->4; step 2 0->2, 4->6; step 3 0->1, 2->3,
// 4->5, 6->7 (all on distinct uplinks and downlinks). Every rank returns after 3 steps: 3 * 1e6/1e9 = 3 ms.
TEST(mpi_collectives_dates, BinomialBcastTakesLog2PSteps)
{
  const CollectiveRun run = run_collective(mpi::Collective::Bcast, "binomial_tree", 8, "fluid", kStar,
                                           [](int me) { return megabyte(mpi::Collective::Bcast, me); });
  for (int rank = 0; rank < 8; ++rank)
    EXPECT_NEAR(run.returned[rank], 3e-3, 1e-12) << "rank " << rank;
}

// Alltoall of 1e6-B blocks on 8 ranks:
//   pair: 7 steps, one exchange each (own uplink, own downlink): 7 * 1 ms = 7 ms;
//   basic_linear: all 7 sends at once; each uplink and each downlink carries 7 flows of 1e9/7 B/s: 7 ms;
//   bruck: 3 steps of 4 blocks (4e6 B) each: 3 * 4 ms = 12 ms.
// Gather to rank 0: 7 flows share rank 0's downlink: 7 ms for everyone (the senders' isends are rendezvous).
TEST(mpi_collectives_dates, AlltoallAndGatherOnAStar)
{
  const struct {
    mpi::Collective op;
    const char* algorithm;
    double date;
  } cases[] = {
      {mpi::Collective::Alltoall, "pair", 7e-3},
      {mpi::Collective::Alltoall, "basic_linear", 7e-3},
      {mpi::Collective::Alltoall, "bruck", 12e-3},
      {mpi::Collective::Gather, "linear_nbc", 7e-3},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.algorithm);
    const mpi::Collective op = c.op;
    const CollectiveRun run =
        run_collective(op, c.algorithm, 8, "fluid", kStar, [op](int me) { return megabyte(op, me); });
    for (int rank = 0; rank < 8; ++rank)
      EXPECT_NEAR(run.returned[rank], c.date, 1e-9 * c.date) << "rank " << rank;
  }
}

// ------------------------------------------------------------------------------------------------------------------
// The default selector
// ------------------------------------------------------------------------------------------------------------------

std::string default_choice(mpi::Collective op, int comm_size, double bytes = 1000)
{
  mpi::CollectiveCall call;
  call.op = op;
  call.bytes = bytes;
  call.recv_bytes = bytes;
  return mpi::SelectorRegistry::find("default").choose(call, mpi::CommShape::flat(comm_size));
}

// SimGrid 3.32's default selection: bcast = binomial_tree, barrier = ompi_basic_linear, allreduce = reduce +
// bcast, reduce_scatter = reduce + scatterv, and the non-blocking "i" implementation + wait for the others.
TEST(mpi_collectives_selector, DefaultChoices)
{
  using C = mpi::Collective;
  EXPECT_EQ(default_choice(C::Bcast, 16), "binomial_tree");
  EXPECT_EQ(default_choice(C::Barrier, 16), "ompi_basic_linear");
  EXPECT_EQ(default_choice(C::Allreduce, 16), "redbcast");
  EXPECT_EQ(default_choice(C::ReduceScatter, 16), "reduce_scatterv");
  // Irregular counts: MPICH's rule on the total element count (SimGrid's reduce_scatter__mpich).
  mpi::CollectiveCall irregular;
  irregular.op = C::ReduceScatter;
  irregular.element_bytes = 8;
  irregular.recv_counts = {8.0 * 262144, 8.0 * 262144}; // 524288 elements: not above the threshold
  const auto& selector = mpi::SelectorRegistry::find("default");
  EXPECT_EQ(selector.choose(irregular, mpi::CommShape::flat(3)), "reduce_scatterv"); // regular after all
  irregular.recv_counts = {8.0 * 262144, 8.0 * 262144, 8.0};                         // 524289 elements, irregular
  EXPECT_EQ(selector.choose(irregular, mpi::CommShape::flat(3)), "mpich_pair");
  irregular.recv_counts = {8.0 * 1000, 8.0 * 262144, 8.0};
  EXPECT_EQ(selector.choose(irregular, mpi::CommShape::flat(3)), "mpich_rdb");
  for (C op : {C::Reduce, C::Gather, C::Gatherv, C::Scatter, C::Scatterv, C::Allgather, C::Allgatherv, C::Alltoallv})
    EXPECT_EQ(default_choice(op, 16), "linear_nbc") << mpi::collective_name(op);
  EXPECT_EQ(default_choice(C::Scan, 16), "linear");
  EXPECT_EQ(default_choice(C::Exscan, 16), "linear");
  // Every choice names a registered algorithm.
  for (size_t i = 0; i < mpi::kCollectiveCount; ++i) {
    const auto op = static_cast<C>(i);
    for (int size : {2, 5, 16, 1000})
      EXPECT_NO_THROW(mpi::AlgorithmRegistry::find(op, default_choice(op, size)));
  }
}

// SimGrid 3.32's alltoall__ompi (its ompi selector), transcribed branch for branch: the reference the table
// in ompi_alltoall_table.hpp must reproduce. Algorithms 1 linear, 2 pairwise, 3 modified bruck, 4 linear_sync,
// 5 two_proc; SimGrid runs 1, 4 and 5 as basic_linear.
std::string simgrid_alltoall_ompi(int n, double d)
{
  int alg = 1;
  if (n == 2) {
    alg = d < 2         ? 2
          : d < 4       ? 5
          : d < 16      ? 2
          : d < 64      ? 5
          : d < 256     ? 2
          : d < 4096    ? 5
          : d < 32768   ? 2
          : d < 262144  ? 4
          : d < 1048576 ? 5
                        : 2;
  } else if (n < 8) {
    alg = d < 8192 ? 4 : d < 16384 ? 1 : d < 65536 ? 4 : d < 524288 ? 1 : d < 1048576 ? 2 : 1;
  } else if (n < 16) {
    alg = d < 262144 ? 4 : 1;
  } else if (n < 32) {
    alg = d < 4 ? 4 : d < 512 ? 3 : d < 8192 ? 4 : d < 32768 ? 1 : d < 262144 ? 4 : d < 524288 ? 1 : 4;
  } else if (n < 64) {
    alg = d < 512 ? 3 : d < 524288 ? 1 : 4;
  } else if (n < 128) {
    alg = d < 1024 ? 3 : d < 2048 ? 1 : d < 4096 ? 4 : d < 262144 ? 1 : 2;
  } else if (n < 256) {
    alg = d < 1024 ? 3 : d < 2048 ? 4 : d < 262144 ? 1 : 2;
  } else if (n < 512) {
    alg = d < 1024 ? 3 : d < 8192 ? 4 : d < 32768 ? 1 : 2;
  } else if (n < 1024) {
    alg = d < 512 ? 3 : d < 8192 ? 4 : d < 16384 ? 1 : d < 131072 ? 4 : d < 262144 ? 1 : 2;
  } else if (n < 2048) {
    alg = d < 512 ? 3 : d < 1024 ? 4 : d < 2048 ? 1 : d < 16384 ? 4 : d < 262144 ? 1 : 4;
  } else if (n < 4096) {
    alg = d < 1024 ? 3 : d < 4096 ? 4 : d < 8192 ? 1 : d < 131072 ? 4 : 1;
  } else {
    alg = d < 2048 ? 3 : d < 8192 ? 4 : d < 16384 ? 1 : d < 32768 ? 4 : d < 65536 ? 1 : 4;
  }
  return alg == 2 ? "pair" : alg == 3 ? "bruck" : "basic_linear";
}

// Both sides of every threshold of every communicator-size row (sizes 2..8192 around each row bound, block sizes
// t-1, t, t+1 around every block threshold).
TEST(mpi_collectives_selector, AlltoallFollowsOpenMpiTableAsSimGrid)
{
  const std::vector<int> sizes = {2,    3,    4,    7,    8,    9,    15,   16,   17,   31,  32,  33,
                                  63,   64,   65,   127,  128,  129,  255,  256,  257,  511, 512, 513,
                                  1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 8192};
  const std::vector<double> thresholds = {2,    4,     16,    64,    256,    512,    1024,   2048,   4096,
                                          8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576};
  std::vector<double> blocks = {0, 1e7};
  for (double t : thresholds)
    for (double d : {t - 1, t, t + 1})
      blocks.push_back(d);
  int checked = 0;
  for (int n : sizes)
    for (double d : blocks) {
      EXPECT_EQ(default_choice(mpi::Collective::Alltoall, n, d), simgrid_alltoall_ompi(n, d))
          << n << " ranks, " << d << " B blocks";
      ++checked;
    }
  EXPECT_EQ(checked, static_cast<int>(sizes.size() * blocks.size()));
  // A few by hand from the table: 16 ranks with 100-B blocks -> bruck (row 16..31, 4 <= 100 < 512); 16 ranks with
  // 512 B or 3 B -> basic_linear; 4 ranks with 600000 B -> pair (524288 <= d < 1048576); 2 ranks with 1 B -> pair,
  // 2 B -> basic_linear (two_proc); 200 ranks with 300000 B -> pair; 5000 ranks with 2047 B -> bruck.
  EXPECT_EQ(default_choice(mpi::Collective::Alltoall, 16, 100), "bruck");
  EXPECT_EQ(default_choice(mpi::Collective::Alltoall, 16, 512), "basic_linear");
  EXPECT_EQ(default_choice(mpi::Collective::Alltoall, 16, 3), "basic_linear");
  EXPECT_EQ(default_choice(mpi::Collective::Alltoall, 4, 600000), "pair");
  EXPECT_EQ(default_choice(mpi::Collective::Alltoall, 2, 1), "pair");
  EXPECT_EQ(default_choice(mpi::Collective::Alltoall, 2, 2), "basic_linear");
  EXPECT_EQ(default_choice(mpi::Collective::Alltoall, 200, 300000), "pair");
  EXPECT_EQ(default_choice(mpi::Collective::Alltoall, 5000, 2047), "bruck");
}

// SimGrid's alltoall__ompi treats only communicator size 2 specially; size 1 falls in the "< 8" branch (basic_linear
// for every block size below 524288 B). No message is sent on one rank, but the chosen name is reported.
TEST(mpi_collectives_selector, AlltoallOnOneRankFollowsSimGrid)
{
  for (double d : {1.0, 10.0, 100.0, 5000.0, 40000.0})
    EXPECT_EQ(default_choice(mpi::Collective::Alltoall, 1, d), simgrid_alltoall_ompi(1, d)) << d << " B blocks";
}

// The default selector runs through the library like a forced algorithm: on 16 ranks, an alltoall of 100-B blocks
// uses bruck (4 steps at distances 1, 2, 4, 8, with 8 blocks each: 64 messages of 800 B).
TEST(mpi_collectives_selector, SelectedAlgorithmIsTheOneRun)
{
  const CollectiveRun run = run_collective(mpi::Collective::Alltoall, "", 16, "test-counting", "", [](int me) {
    mpi::CollectiveCall call = call_for(mpi::Collective::Alltoall, me, 16);
    call.bytes = call.recv_bytes = 100;
    return call;
  });
  ASSERT_EQ(run.messages.size(), 64u);
  for (const Sent& m : run.messages)
    EXPECT_EQ(m.bytes, 800);
}

// ------------------------------------------------------------------------------------------------------------------
// Non-blocking collectives
// ------------------------------------------------------------------------------------------------------------------

// An ibcast progresses while the ranks compute. Star of 1 GBps links, 8 ranks, 1e6 B from rank 0 with the default
// selector's non-blocking choice (SimGrid's: the root sends to all at once): 7 flows share the root's uplink and all
// end at 7 * 1e6 / 1e9 = 7 ms. Each rank computes 3e6 flops at 1 Gf (3 ms) meanwhile, then waits: everyone returns
// at max(3, 7) = 7 ms, where a blocking bcast followed by the computation would end at 10 ms.
TEST(mpi_collectives_nonblocking, ProgressesWhileTheRankComputes)
{
  mpi::SimulationOptions options;
  options.platform = "cluster:8,bw=1GBps,lat=0s";
  options.model = "fluid";
  mpi::Simulation simulation(options, 8);
  std::vector<double> returned(8, -1);
  simulation.world().launch([&](mpi::Rank& rank) {
    mpi::CollectiveCall call;
    call.op = mpi::Collective::Bcast;
    call.bytes = 1e6;
    mpi::RequestPtr request = simulation.collectives().start(rank, rank.world().comm_world(), call);
    rank.compute(3e6);
    rank.wait(*request);
    returned[rank.world_rank()] = rank.world().engine().now();
  });
  simulation.engine().run();
  for (int r = 0; r < 8; ++r)
    EXPECT_NEAR(returned[r], 7e-3, 1e-12) << "rank " << r;
}

// Several collectives in flight on one communicator, blocking and not, with data: an ibcast from rank 0, then an
// iallreduce, then a blocking bcast from rank 3 before either is waited for. Each gets its own data.
TEST(mpi_collectives_nonblocking, CollectivesInFlightDoNotMix)
{
  mpi::SimulationOptions options;
  options.platform = "cluster:6";
  options.model = "smpi";
  mpi::Simulation simulation(options, 6);
  std::vector<std::vector<int>> results(6);
  simulation.world().launch([&](mpi::Rank& rank) {
    const int me = rank.world_rank();
    const auto& world = rank.world().comm_world();
    std::vector<int> first(4, me == 0 ? 11 : -1), sum_in(4, me + 1), sum_out(4, 0), second(4, me == 3 ? 33 : -1);
    mpi::CollectiveCall ibcast;
    ibcast.op = mpi::Collective::Bcast;
    ibcast.bytes = sizeof(int) * 4.0;
    ibcast.with_data = true;
    ibcast.recv_data = reinterpret_cast<std::byte*>(first.data());
    mpi::CollectiveCall iallreduce;
    iallreduce.op = mpi::Collective::Allreduce;
    iallreduce.bytes = sizeof(int) * 4.0;
    iallreduce.element_bytes = sizeof(int);
    iallreduce.with_data = true;
    iallreduce.send_data = reinterpret_cast<const std::byte*>(sum_in.data());
    iallreduce.recv_data = reinterpret_cast<std::byte*>(sum_out.data());
    iallreduce.reduce_type = mpi::Datatype::predefined(mpi::Element::Int);
    iallreduce.reduce_op = mpi::ReduceOp::predefined(mpi::ReduceOperation::Sum);
    mpi::CollectiveCall bcast = ibcast;
    bcast.root = 3;
    bcast.recv_data = reinterpret_cast<std::byte*>(second.data());
    mpi::RequestPtr a = simulation.collectives().start(rank, world, ibcast);
    mpi::RequestPtr b = simulation.collectives().start(rank, world, iallreduce);
    simulation.collectives().run(rank, world, bcast);
    rank.wait(*b);
    rank.wait(*a);
    results[me] = {first[0], first[3], sum_out[0], sum_out[3], second[0], second[3]};
  });
  simulation.engine().run();
  for (int r = 0; r < 6; ++r)
    EXPECT_EQ(results[r], (std::vector<int>{11, 11, 21, 21, 33, 33})) << "rank " << r; // 1+2+...+6 = 21
}

// A non-blocking collective that never completes shows in the deadlock report: rank 1 waits for an ibcast that
// rank 0 never starts.
TEST(mpi_collectives_nonblocking, UnfinishedCollectiveIsReported)
{
  mpi::SimulationOptions options;
  options.platform = "cluster:2";
  mpi::Simulation simulation(options, 2);
  simulation.world().launch([&](mpi::Rank& rank) {
    if (rank.world_rank() == 0)
      return;
    mpi::CollectiveCall call;
    call.op = mpi::Collective::Bcast;
    call.bytes = 8;
    mpi::RequestPtr request = simulation.collectives().start(rank, rank.world().comm_world(), call);
    rank.wait(*request);
  });
  try {
    simulation.engine().run();
    FAIL() << "no deadlock reported";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("non-blocking bcast on MPI_COMM_WORLD"), std::string::npos)
        << error.what();
  }
}

// The automatic selector times every alltoall algorithm alone on the same hosts and runs the fastest. On the star of
// 1 GBps links, 1e6-B blocks on 8 ranks: basic_linear, linear_nbc and pair take 7 ms, bruck 12 ms (see
// AlltoallAndGatherOnAStar); the first fastest in name order, basic_linear, is chosen. Two identical calls share
// one decision (16 rank-calls); each takes 7 ms, so the ranks return at 14 ms.
TEST(mpi_collectives_selector, AutomaticRunsTheFastestAndReportsWhy)
{
  mpi::SimulationOptions options;
  options.platform = kStar;
  options.model = "fluid";
  options.collective_selector = "automatic";
  mpi::Simulation simulation(options, 8);
  std::vector<double> returned(8, -1);
  simulation.world().launch([&](mpi::Rank& rank) {
    const mpi::CollectiveCall call = megabyte(mpi::Collective::Alltoall, rank.world_rank());
    simulation.collectives().run(rank, rank.world().comm_world(), call);
    simulation.collectives().run(rank, rank.world().comm_world(), call);
    returned[rank.world_rank()] = rank.world().engine().now();
  });
  simulation.engine().run();
  for (int r = 0; r < 8; ++r)
    EXPECT_NEAR(returned[r], 14e-3, 1e-12) << "rank " << r;
  const auto& decisions = simulation.collectives().automatic_decisions();
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_EQ(decisions[0].chosen, "basic_linear");
  EXPECT_EQ(decisions[0].calls, 16u);
  EXPECT_EQ(decisions[0].comm_size, 8);
  std::map<std::string, double> times(decisions[0].candidates.begin(), decisions[0].candidates.end());
  EXPECT_NEAR(times.at("pair"), 7e-3, 1e-12);
  EXPECT_NEAR(times.at("bruck"), 12e-3, 1e-12);
  EXPECT_EQ(times.size(), mpi::AlgorithmRegistry::of(mpi::Collective::Alltoall).size());
}

// Unknown names are InputErrors that list the valid ones.
TEST(mpi_collectives_selector, UnknownNamesListTheValidOnes)
{
  auto message = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const InputError& error) {
      return error.what();
    }
    return "(no error)";
  };
  const std::string selector = message([] { mpi::CollectiveLibrary library("openmpi"); });
  EXPECT_NE(selector.find("'openmpi'"), std::string::npos) << selector;
  EXPECT_NE(selector.find("default"), std::string::npos) << selector;

  const std::string algorithm = message([] { mpi::CollectiveLibrary library("default", {{"alltoall", "spiral"}}); });
  EXPECT_NE(algorithm.find("'spiral'"), std::string::npos) << algorithm;
  EXPECT_NE(algorithm.find("alltoall"), std::string::npos) << algorithm;
  for (const char* valid : {"basic_linear", "bruck", "pair"})
    EXPECT_NE(algorithm.find(valid), std::string::npos) << algorithm;

  const std::string operation = message([] { mpi::CollectiveLibrary library("default", {{"alltoal", "pair"}}); });
  EXPECT_NE(operation.find("'alltoal'"), std::string::npos) << operation;
  EXPECT_NE(operation.find("reduce_scatter"), std::string::npos) << operation;

  // The same through the Simulation options.
  const std::string through = message([] {
    mpi::SimulationOptions options;
    options.platform = "cluster:2";
    options.collective_algorithms["bcast"] = "no_such_bcast";
    mpi::Simulation simulation(options, 2);
  });
  EXPECT_NE(through.find("'no_such_bcast'"), std::string::npos) << through;
  EXPECT_NE(through.find("binomial_tree"), std::string::npos) << through;
}

} // namespace
