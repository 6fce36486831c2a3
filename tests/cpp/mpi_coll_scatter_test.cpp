// Scatter algorithms of Open MPI and MVAPICH2 (as SimGrid 3.32 runs them): their messages on 5 ranks (root 2,
// B = 1000 B, one rank per host), derived by hand below; the two-level scatters' messages on two ranks per host, and
// their data on placements where each node's ranks are not consecutive and the root is not a leader.
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

// Linear scatters (blocking or non-blocking sends): the root sends every other rank its block.
const ExpectMessages kBasicLinear("scatter/ompi_basic_linear",
                                  [] { return from_root(5, kRoot, [](int) { return B; }); });
const ExpectMessages kLinearNb("scatter/ompi_linear_nb", [] { return from_root(5, kRoot, [](int) { return B; }); });

// In-order binomial tree from root 2 (relative ranks v0..v4 = ranks 2, 3, 4, 0, 1; v0's children v1, v2, v4, v2's
// child v3): the root sends each child its subtree's blocks, smallest first: v1 one block (2->3), v2 two (2->4, 2B),
// v4 one (2->1); v2 forwards v3's block (4->0).
Messages binomial_from_2()
{
  return {{2, 3, B}, {2, 4, 2 * B}, {2, 1, B}, {4, 0, B}};
}
const ExpectMessages kBinomial("scatter/ompi_binomial", binomial_from_2);

// Two-level scatters with one rank per host: the root is its node's leader, so nothing goes to a leader first; every
// rank is a leader, so the leaders' scatter is the whole scatter (linear for direct, binomial for binomial), and the
// nodes' scatters have one rank.
const ExpectMessages kTwoLevelDirect("scatter/mvapich2_two_level_direct",
                                     [] { return from_root(5, kRoot, [](int) { return B; }); });
const ExpectMessages kTwoLevelBinomial("scatter/mvapich2_two_level_binomial", binomial_from_2);

} // namespace

namespace {

// The messages (world ranks) of one scatter from `root` on P ranks placed two per host (ranks 2h and 2h + 1 on host
// h; with P odd the last host has one rank): node leaders are the even ranks.
Messages on_two_per_host(const std::string& algorithm, int P, int root)
{
  struct Recorder : mpi::Observer {
    Messages sent;
    void message(const mpi::MessageRecord& m) override { sent.push_back({m.source, m.destination, m.bytes}); }
  } recorder;
  Scratch scratch;
  mpi::SimulationOptions options;
  const int hosts = (P + 1) / 2;
  options.platform = "cluster:" + std::to_string(hosts);
  std::string hostfile;
  for (int h = 0; h < hosts; ++h)
    hostfile += "node-" + std::to_string(h) + ":2\n";
  options.hostfile = scratch.write("hosts.txt", hostfile);
  options.collective_algorithms["scatter"] = algorithm;
  mpi::Simulation simulation(options, P);
  simulation.world().add_observer(recorder);
  simulation.world().launch([&](mpi::Rank& rank) {
    mpi::CollectiveCall call = call_for(mpi::Collective::Scatter, rank.world_rank(), P);
    call.root = root;
    simulation.collectives().run(rank, rank.world().comm_world(), call);
  });
  simulation.engine().run();
  std::sort(recorder.sent.begin(), recorder.sent.end());
  return recorder.sent;
}

// The nodes' binomial scatters on two ranks: each leader 2h sends its partner 2h + 1 one block.
Messages leaders_to_partners(int P)
{
  Messages out;
  for (int leader = 0; leader + 1 < P; leader += 2)
    out.push_back({leader, leader + 1, B});
  return out;
}

Messages sorted(Messages m)
{
  std::sort(m.begin(), m.end());
  return m;
}

// Two-level scatters on 12 ranks, two per host (leaders 0, 2, ..., 10 are leader ranks 0..5). Checked against the
// sources and destinations SimGrid 3.32 sends online (smpirun with tracing/smpi/internals).
//   direct, root 3 (not a leader): 3 sends its leader 2 all 12 blocks; 2 sends each other leader its node's 2
//     blocks; each leader sends its partner one block.
//   binomial, root 3: the leaders' in-order binomial tree from leader rank 1 (rank 2): relative leaders v0..v5 are
//     ranks 2, 4, 6, 8, 10, 0; v0 sends v1 one node's blocks (2->4, 2B), v2 two (2->6, 4B), v4 two (2->10, 4B);
//     v2 forwards to v3 (6->8, 2B), v4 to v5 (10->0, 2B).
//   binomial, root 0 (a leader): the same tree from leader 0: 0->2 2B, 0->4 4B, 0->8 4B, 4->6 2B, 8->10 2B.
TEST(mpi_coll_scatter, TwoLevelOnTwoRanksPerHost)
{
  const Messages direct =
      Messages{{3, 2, 12 * B}, {2, 0, 2 * B}, {2, 4, 2 * B}, {2, 6, 2 * B}, {2, 8, 2 * B}, {2, 10, 2 * B}} +
      leaders_to_partners(12);
  EXPECT_EQ(on_two_per_host("mvapich2_two_level_direct", 12, 3), sorted(direct));
  const Messages binomial_from_3 =
      Messages{{3, 2, 12 * B}, {2, 4, 2 * B}, {2, 6, 4 * B}, {2, 10, 4 * B}, {6, 8, 2 * B}, {10, 0, 2 * B}} +
      leaders_to_partners(12);
  EXPECT_EQ(on_two_per_host("mvapich2_two_level_binomial", 12, 3), sorted(binomial_from_3));
  const Messages binomial_from_0 =
      Messages{{0, 2, 2 * B}, {0, 4, 4 * B}, {0, 8, 4 * B}, {4, 6, 2 * B}, {8, 10, 2 * B}} + leaders_to_partners(12);
  EXPECT_EQ(on_two_per_host("mvapich2_two_level_binomial", 12, 0), sorted(binomial_from_0));
}

// On 11 ranks the last host has one rank (10): nodes differ in size, so the leaders scatter with a scatterv (the
// library's choice: linear_nbc) of 2 blocks per node and 1 for rank 10's node, as SimGrid 3.32 does online.
TEST(mpi_coll_scatter, TwoLevelOnUnevenNodesScattersVariableRuns)
{
  const Messages expected =
      Messages{{3, 2, 11 * B}, {2, 0, 2 * B}, {2, 4, 2 * B}, {2, 6, 2 * B}, {2, 8, 2 * B}, {2, 10, B}} +
      leaders_to_partners(11);
  for (const char* algorithm : {"mvapich2_two_level_direct", "mvapich2_two_level_binomial"})
    EXPECT_EQ(on_two_per_host(algorithm, 11, 3), sorted(expected)) << algorithm;
}

// Data: ranks dealt round-robin over 3 hosts (node 0 holds ranks 0, 3, 6, ...), so no node's ranks are consecutive;
// uniform (P = 9) and not (P = 10); every root; the root's blocks are 3 words each, all different.
TEST(mpi_coll_scatter, TwoLevelMovesTheRightDataOnScatteredNodes)
{
  for (const char* algorithm : {"mvapich2_two_level_direct", "mvapich2_two_level_binomial"})
    for (int P : {9, 10})
      for (int root = 0; root < P; ++root) {
        SCOPED_TRACE(std::string(algorithm) + " P=" + std::to_string(P) + " root=" + std::to_string(root));
        const int words = 3;
        std::vector<uint32_t> send;
        for (int w = 0; w < P * words; ++w)
          send.push_back(static_cast<uint32_t>(1000 * root + w));
        std::vector<std::vector<uint32_t>> recv(P, std::vector<uint32_t>(words, 0xdeadbeef));
        Scratch scratch;
        mpi::SimulationOptions options;
        options.platform = "cluster:3";
        options.hostfile = scratch.write("hosts.txt", "node-0\nnode-1\nnode-2\n");
        options.collective_algorithms["scatter"] = algorithm;
        mpi::Simulation simulation(options, P);
        simulation.world().launch([&](mpi::Rank& rank) {
          const int me = rank.world_rank();
          mpi::CollectiveCall c;
          c.op = mpi::Collective::Scatter;
          c.root = root;
          c.bytes = c.recv_bytes = 4.0 * words;
          c.with_data = true;
          c.send_data = me == root ? reinterpret_cast<const std::byte*>(send.data()) : nullptr;
          c.recv_data = reinterpret_cast<std::byte*>(recv[me].data());
          simulation.collectives().run(rank, rank.world().comm_world(), c);
        });
        simulation.engine().run();
        for (int me = 0; me < P; ++me)
          EXPECT_EQ(recv[me], std::vector<uint32_t>(send.begin() + me * words, send.begin() + (me + 1) * words))
              << "rank " << me;
      }
}

} // namespace

namespace {

// Dates of the binomial scatter on a star of 1 GBps links with no latency (fluid model), 8 ranks, root 0, blocks of
// 1e6 B (rendezvous: a blocking send returns when its data has arrived; 1e6 B alone on its links take 1 ms). Each
// parent serves its children smallest subtree first, one blocking send at a time:
//   root: 0->1 (1 block) 0-1 ms, 0->2 (2) 1-3 ms, 0->4 (4) 3-7 ms: returns at 7 ms; rank 1 at 1 ms.
//   rank 2: 2->3 3-4 ms: ranks 2 and 3 return at 4 ms.
//   rank 4: 4->5 (1) 7-8 ms, then 4->6 (2) 8-10 ms: rank 5 returns at 8 ms, rank 4 at 10 ms.
//   rank 6: 6->7 10-11 ms: ranks 6 and 7 return at 11 ms.
TEST(mpi_coll_scatter, BinomialDatesOnAStar)
{
  const CollectiveRun run =
      run_collective(mpi::Collective::Scatter, "ompi_binomial", 8, "fluid", "cluster:8,bw=1GBps,lat=0s", [](int me) {
        mpi::CollectiveCall call = call_for(mpi::Collective::Scatter, me, 8);
        call.root = 0;
        call.bytes = call.recv_bytes = 1e6;
        return call;
      });
  const double expected[] = {7e-3, 1e-3, 4e-3, 4e-3, 10e-3, 8e-3, 11e-3, 11e-3};
  for (int rank = 0; rank < 8; ++rank)
    EXPECT_NEAR(run.returned[rank], expected[rank], 1e-12) << "rank " << rank;
}

} // namespace
