// Barrier algorithms of Open MPI, MPICH and MVAPICH2 (as SimGrid 3.32 runs them): their messages on 5 ranks (one
// rank per host), derived by hand below (all messages are empty), and the SMP barrier on two ranks per host.
#include "support/CollectiveMessages.hpp"
#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

// Recursive doubling on 5 ranks: A = 4. Rank 4 enters with a sendrecv with 0 (4->0), rank 0 receives it; ranks 0..3
// exchange at distance 1 (0<->1, 2<->3) and 2 (0<->2, 1<->3); rank 0 releases rank 4 (0->4). MVAPICH2's pairwise
// barrier sends the same; two_procs, on 5 ranks, runs recursive doubling.
Messages recursive_doubling_on_five()
{
  return {{4, 0, 0}, {0, 1, 0}, {1, 0, 0}, {2, 3, 0}, {3, 2, 0}, {0, 2, 0}, {2, 0, 0}, {1, 3, 0}, {3, 1, 0}, {0, 4, 0}};
}
const ExpectMessages kRecursiveDoubling("barrier/ompi_recursivedoubling", recursive_doubling_on_five);
const ExpectMessages kPair("barrier/mvapich2_pair", recursive_doubling_on_five);
const ExpectMessages kTwoProcs("barrier/ompi_two_procs", recursive_doubling_on_five);

// Dissemination (bruck): at distances 1, 2, 4 every rank sends to rank + distance mod 5.
Messages bruck_on_five()
{
  Messages out;
  for (int me = 0; me < 5; ++me)
    for (int distance : {1, 2, 4})
      out.push_back({me, (me + distance) % 5, 0});
  return out;
}
const ExpectMessages kBruck("barrier/ompi_bruck", bruck_on_five);

// MPICH SMP barrier with one rank per host: the nodes' barriers and release broadcasts have one rank; the leaders'
// barrier (all 5 ranks) is the dissemination barrier.
const ExpectMessages kMpichSmp("barrier/mpich_smp", bruck_on_five);

// Tree: D = 8. Going up: jump 1 pairs (0,1), (2,3): 1->0, 3->2; jump 2 pairs (0,2): 2->0; jump 4 pairs (0,4): 4->0.
// Coming down, the mirror: 0->4, 0->2, 0->1, 2->3.
const ExpectMessages kTree("barrier/ompi_tree", [] {
  return Messages{{1, 0, 0}, {3, 2, 0}, {2, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 2, 0}, {0, 1, 0}, {2, 3, 0}};
});

// Double ring: the token goes twice around 0 -> 1 -> 2 -> 3 -> 4 -> 0.
const ExpectMessages kDoubleRing("barrier/ompi_doublering", [] {
  Messages out;
  for (int round = 0; round < 2; ++round)
    for (int me = 0; me < 5; ++me)
      out.push_back({me, (me + 1) % 5, 0});
  return out;
});

} // namespace

namespace {

// MPICH's SMP barrier on 12 ranks, two per host (leaders: the even ranks 0..10, leader ranks 0..5): in each node
// the dissemination barrier on two ranks (2h <-> 2h+1, empty), among the leaders the dissemination barrier on 6
// (leader i -> leaders i+1, i+2, i+4 mod 6, empty), then each leader's 1-byte binomial broadcast to its partner. The
// same sources and destinations as SimGrid 3.32 online (smpirun with tracing/smpi/internals).
TEST(mpi_coll_barrier, MpichSmpOnTwoRanksPerHost)
{
  struct Recorder : mpi::Observer {
    Messages sent;
    void message(const mpi::MessageRecord& m) override { sent.push_back({m.source, m.destination, m.bytes}); }
  } recorder;
  Scratch scratch;
  mpi::SimulationOptions options;
  options.platform = "cluster:6";
  options.hostfile = scratch.write("hosts.txt", "node-0:2\nnode-1:2\nnode-2:2\nnode-3:2\nnode-4:2\nnode-5:2\n");
  options.collective_algorithms["barrier"] = "mpich_smp";
  mpi::Simulation simulation(options, 12);
  simulation.world().add_observer(recorder);
  simulation.world().launch([&](mpi::Rank& rank) {
    mpi::CollectiveCall call;
    call.op = mpi::Collective::Barrier;
    simulation.collectives().run(rank, rank.world().comm_world(), call);
  });
  simulation.engine().run();
  Messages expected;
  for (int leader = 0; leader < 12; leader += 2) {
    expected = expected + Messages{{leader, leader + 1, 0}, {leader + 1, leader, 0}, {leader, leader + 1, 1}};
    for (int distance : {1, 2, 4})
      expected.push_back({leader, (leader + 2 * distance) % 12, 0});
  }
  std::sort(expected.begin(), expected.end());
  std::sort(recorder.sent.begin(), recorder.sent.end());
  EXPECT_EQ(recorder.sent, expected) << "got:\n" << describe(recorder.sent) << "expected:\n" << describe(expected);
}

} // namespace
