// Gather algorithms of Open MPI and MVAPICH2 (as SimGrid 3.32 runs them): their messages on 5 ranks (root 2,
// B = 1000 B, one rank per host), derived by hand below; the two-level gather's messages on two ranks per host, and
// its data on placements where each node's ranks are not consecutive and the root is not a leader.
#include "support/CollectiveMessages.hpp"
#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

// Linear gather: every other rank sends its block to the root.
const ExpectMessages kBasicLinear("gather/ompi_basic_linear", [] { return to_root(5, kRoot, [](int) { return B; }); });

// In-order binomial tree from root 2: relative ranks v = (rank - 2) mod 5, so v0..v4 are ranks 2, 3, 4, 0, 1. The
// children of v are v+1, v+2, v+4 below v's lowest set bit: v0 has v1, v2, v4; v2 has v3; v1, v3, v4 are leaves. A
// child's subtree holds min(child - v, 5 - child) blocks: v1 -> v0 one block (3->2), v3 -> v2 one (0->4), v2 -> v0
// two (its own and v3's: 4->2, 2B), v4 -> v0 one (1->2).
const ExpectMessages kBinomial("gather/ompi_binomial", [] {
  return Messages{{3, 2, B}, {0, 4, B}, {4, 2, 2 * B}, {1, 2, B}};
});

// Linear synchronised gather: for each other rank i the root sends an empty go-ahead, then i sends its first segment
// and the rest. B = 1000 B <= 90 KiB, so the first segment is 1024 B, which holds the whole block: the rest is empty
// (and still sent).
const ExpectMessages kLinearSync("gather/ompi_linear_sync", [] {
  Messages out;
  for (int i : {0, 1, 3, 4})
    out = out + Messages{{kRoot, i, 0}, {i, kRoot, B}, {i, kRoot, 0}};
  return out;
});

// Two-level gather with one rank per host: every node gathers nothing (one rank), the leaders (every rank) gather at
// the root's leader (the root itself) linearly: every other rank -> root, B.
const ExpectMessages kTwoLevel("gather/mvapich2_two_level", [] { return to_root(5, kRoot, [](int) { return B; }); });

} // namespace

namespace {

// Runs one gather on P ranks placed by `hostfile` (on a cluster of `hosts` hosts), each rank's call made by
// `make_call`; returns the messages (world ranks).
Messages run_placed(const std::string& algorithm, int P, int hosts, const std::string& hostfile,
                    const std::function<mpi::CollectiveCall(int me)>& make_call)
{
  struct Recorder : mpi::Observer {
    Messages sent;
    void message(const mpi::MessageRecord& m) override { sent.push_back({m.source, m.destination, m.bytes}); }
  } recorder;
  Scratch scratch;
  mpi::SimulationOptions options;
  options.platform = "cluster:" + std::to_string(hosts);
  options.hostfile = scratch.write("hosts.txt", hostfile);
  options.collective_algorithms["gather"] = algorithm;
  mpi::Simulation simulation(options, P);
  simulation.world().add_observer(recorder);
  simulation.world().launch([&](mpi::Rank& rank) {
    const mpi::CollectiveCall call = make_call(rank.world_rank());
    simulation.collectives().run(rank, rank.world().comm_world(), call);
  });
  simulation.engine().run();
  std::sort(recorder.sent.begin(), recorder.sent.end());
  return recorder.sent;
}

std::string two_per_host(int P)
{
  std::string hostfile;
  for (int h = 0; h < (P + 1) / 2; ++h)
    hostfile += "node-" + std::to_string(h) + ":2\n";
  return hostfile;
}

Messages sorted(Messages m)
{
  std::sort(m.begin(), m.end());
  return m;
}

// Two-level gather on 12 ranks, two per host (leaders: the even ranks). Each odd rank sends its block to its leader
// (the node's binomial gather on two ranks); the leaders send their node's 2 blocks to the root's leader (linear);
// if the root is not a leader, its leader sends it all 12 blocks.
//   root 2 (a leader): the sources and destinations SimGrid 3.32 sends online (smpirun with tracing/smpi/internals).
//   root 3: the same, then 2->3 (12 B blocks); SimGrid 3.32 crashes online there (its leader sends from a buffer it
//   never allocated).
// On 11 ranks the last host has one rank (10): the leaders use a gatherv (library's choice, linear_nbc) and rank 10
// sends one block (SimGrid 3.32 crashes there too: its gatherv root has no counts).
TEST(mpi_coll_gather, TwoLevelOnTwoRanksPerHost)
{
  auto partners_to_leaders = [](int P) {
    Messages out;
    for (int leader = 0; leader + 1 < P; leader += 2)
      out.push_back({leader + 1, leader, B});
    return out;
  };
  auto call = [](int P, int root) {
    return [P, root](int me) {
      mpi::CollectiveCall c = call_for(mpi::Collective::Gather, me, P);
      c.root = root;
      return c;
    };
  };
  const Messages leaders_to_2 = {{0, 2, 2 * B}, {4, 2, 2 * B}, {6, 2, 2 * B}, {8, 2, 2 * B}, {10, 2, 2 * B}};
  EXPECT_EQ(run_placed("mvapich2_two_level", 12, 6, two_per_host(12), call(12, 2)),
            sorted(partners_to_leaders(12) + leaders_to_2));
  EXPECT_EQ(run_placed("mvapich2_two_level", 12, 6, two_per_host(12), call(12, 3)),
            sorted(partners_to_leaders(12) + leaders_to_2 + Messages{{2, 3, 12 * B}}));
  const Messages uneven = {{0, 2, 2 * B}, {4, 2, 2 * B}, {6, 2, 2 * B}, {8, 2, 2 * B}, {10, 2, B}};
  EXPECT_EQ(run_placed("mvapich2_two_level", 11, 6, two_per_host(11), call(11, 2)),
            sorted(partners_to_leaders(11) + uneven));
}

// Data: ranks dealt round-robin over 3 hosts (node 0 holds ranks 0, 3, 6, ...), so no node's ranks are consecutive;
// uniform (P = 9) and not (P = 10); every root, leaders and others; each rank's block is 3 words of its own.
TEST(mpi_coll_gather, TwoLevelMovesTheRightDataOnScatteredNodes)
{
  const std::string round_robin = "node-0\nnode-1\nnode-2\n";
  for (int P : {9, 10})
    for (int root = 0; root < P; ++root) {
      SCOPED_TRACE("P=" + std::to_string(P) + " root=" + std::to_string(root));
      const int words = 3;
      std::vector<std::vector<uint32_t>> send(P), recv(P);
      for (int me = 0; me < P; ++me) {
        for (int w = 0; w < words; ++w)
          send[me].push_back(static_cast<uint32_t>(100 * me + w));
        recv[me].assign(me == root ? P * words : 0, 0xdeadbeef);
      }
      run_placed("mvapich2_two_level", P, 3, round_robin, [&](int me) {
        mpi::CollectiveCall c;
        c.op = mpi::Collective::Gather;
        c.root = root;
        c.bytes = c.recv_bytes = 4.0 * words;
        c.with_data = true;
        c.send_data = reinterpret_cast<const std::byte*>(send[me].data());
        c.recv_data = me == root ? reinterpret_cast<std::byte*>(recv[me].data()) : nullptr;
        return c;
      });
      std::vector<uint32_t> expected;
      for (int me = 0; me < P; ++me)
        expected.insert(expected.end(), send[me].begin(), send[me].end());
      EXPECT_EQ(recv[root], expected);
    }
}

} // namespace

namespace {

// Dates of the binomial gather on a star of 1 GBps links with no latency (fluid model), 8 ranks, root 0, blocks of
// 1e6 B (rendezvous: a blocking send returns when its data has arrived; 1e6 B alone on its links take 1 ms). The
// root receives from its children v1, v2, v4 in that order; every message has its own uplink and downlink.
//   0-1 ms: 1->0, 3->2, 5->4, 7->6 (one block each): ranks 1, 3, 5, 7 return at 1 ms.
//   1-3 ms: 2->0 and 6->4 (two blocks each): ranks 2 and 6 return at 3 ms.
//   3-7 ms: 4->0 (four blocks): ranks 4 and 0 return at 7 ms, (P - 1) blocks through the root's downlink.
TEST(mpi_coll_gather, BinomialDatesOnAStar)
{
  const CollectiveRun run =
      run_collective(mpi::Collective::Gather, "ompi_binomial", 8, "fluid", "cluster:8,bw=1GBps,lat=0s", [](int me) {
        mpi::CollectiveCall call = call_for(mpi::Collective::Gather, me, 8);
        call.root = 0;
        call.bytes = call.recv_bytes = 1e6;
        return call;
      });
  const double expected[] = {7e-3, 1e-3, 3e-3, 1e-3, 7e-3, 1e-3, 3e-3, 1e-3};
  for (int rank = 0; rank < 8; ++rank)
    EXPECT_NEAR(run.returned[rank], expected[rank], 1e-12) << "rank " << rank;
}

} // namespace
