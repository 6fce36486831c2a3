// Expected messages of the allgather algorithms on 5 ranks, one per host (B = 1000 B per block; the SMP-aware
// algorithms see one rank per node). Each list is derived by hand from the algorithm's definition (its header).
#include "mpi/Simulation.hpp"
#include "support/CollectiveMessages.hpp"
#include "support/Scratch.hpp"

#include <gtest/gtest.h>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

constexpr int P = 5;

Messages every_pair_B()
{
  return all_pairs(P, [](int, int) { return B; });
}

// Each rank sends `steps` blocks of B to its right neighbour.
Messages ring_to_right(int steps)
{
  Messages out;
  for (int me = 0; me < P; ++me)
    for (int i = 0; i < steps; ++i)
      out.push_back({me, (me + 1) % P, B});
  return out;
}

// ring: step i = 1..4 sends the own block to me+i: every ordered pair once.
const ExpectMessages kRing("allgather/ring", every_pair_B);
// pair: 5 is not a power of two, so ring.
const ExpectMessages kPair("allgather/pair", every_pair_B);
// spreading_simple: sends the own block to me+1..me+4.
const ExpectMessages kSpreading("allgather/spreading_simple", every_pair_B);
// ompi_neighborexchange: odd size, so ring.
const ExpectMessages kNeighbor("allgather/ompi_neighborexchange", every_pair_B);
// 2dmesh: 5 has no divisor in [floor(sqrt 5), 5/2] = [2, 2]: a 1 x 5 mesh, whose row phase sends the own block to
// every other rank; the column phase has no peer.
const ExpectMessages k2dmesh("allgather/2dmesh", every_pair_B);
// 3dmesh: x = floor(cbrt 5) = 1 divides 5: X = Y = 1, Z = 5; rows and columns have no peer, the plane phase sends
// the plane of 1 block to each of the 4 other planes.
const ExpectMessages k3dmesh("allgather/3dmesh", every_pair_B);
// smp_simple: one rank per node, so every rank is a leader and sends its node's 1 block to every other leader.
const ExpectMessages kSmpSimple("allgather/smp_simple", every_pair_B);

// NTSLR, NTSLR_NB: P-1 = 4 steps, each sending one block to the right neighbour.
const ExpectMessages kNTSLR("allgather/NTSLR", [] { return ring_to_right(4); });
const ExpectMessages kNTSLRNB("allgather/NTSLR_NB", [] { return ring_to_right(4); });
// loosely_lr: one rank per node: 5 ring steps, all but the last sending one block to r+1; no intra-node traffic.
const ExpectMessages kLooselyLr("allgather/loosely_lr", [] { return ring_to_right(4); });
// SMP_NTS: one rank per node: the leader ring sends its own group (1 block) then forwards the first 3 of the 4
// groups it receives: 4 blocks to the right; no rank to chain to inside the node.
const ExpectMessages kSmpNts("allgather/SMP_NTS", [] { return ring_to_right(4); });

// GB: linear gather to 0 (1..4 -> 0, B), then binomial bcast of 5B from 0: 0->4, 0->2, 0->1, 2->3.
const ExpectMessages kGB("allgather/GB", [] {
  return to_root(P, 0, [](int) { return B; }) + Messages{{0, 4, 5 * B}, {0, 2, 5 * B}, {0, 1, 5 * B}, {2, 3, 5 * B}};
});

// rdb: mask 1: 0<->1, 2<->3 one block each; 4 has no partner (and no rank of its subtree has data to pass).
// mask 2: 0<->2 and 1<->3 exchange their 2-block subtrees; 4's partner 6 does not exist.
// mask 4: 0<->4: 0 sends blocks 0..3 (4B), 4 sends block 4 (B); ranks 1, 2, 3 have no partner: in subtree {0..3}
// only 0 (completed = 5 - 0 - 4 = 1) has block 4 and passes it by halving: 0->2, then 0->1 and 2->3.
Messages rdb_on_five()
{
  return {{0, 1, B},     {1, 0, B},     {2, 3, B}, {3, 2, B}, {0, 2, 2 * B}, {2, 0, 2 * B}, {1, 3, 2 * B},
          {3, 1, 2 * B}, {0, 4, 4 * B}, {4, 0, B}, {0, 2, B}, {0, 1, B},     {2, 3, B}};
}
const ExpectMessages kRdb("allgather/rdb", rdb_on_five);
// rhv: 5 is not a power of two, so rdb.
const ExpectMessages kRhv("allgather/rhv", rdb_on_five);

// bruck: distance 1: 1 block to me-1; distance 2 (<= 5/2): 2 blocks to me-2; distance 4 > 5/2 ends the doubling, the
// remainder 5-4 = 1 block goes to me-4 = me+1.
Messages bruck_on_five()
{
  Messages out;
  for (int me = 0; me < P; ++me)
    out = out + Messages{{me, (me + 4) % P, B}, {me, (me + 3) % P, 2 * B}, {me, (me + 1) % P, B}};
  return out;
}
const ExpectMessages kBruck("allgather/bruck", bruck_on_five);
// mvapich2_smp: one rank per node: the node gathers and broadcasts send nothing; the 5 leaders (5 is not a power of
// two, 5 * 1000 B <= 80 KiB) run bruck.
const ExpectMessages kMvapich2Smp("allgather/mvapich2_smp", bruck_on_five);

// The SMP-aware algorithms on 8 ranks, 4 per host (hosts 0 and 1, ranks 0-3 and 4-7; leaders 0 and 4), as messages
// between hosts (a message inside a host shows as h -> h). SimGrid 3.32 aborts when replaying these algorithms, so
// these hand-derived lists are their only check.
Messages on_two_nodes(const std::string& algorithm)
{
  Scratch scratch;
  traffic().clear();
  mpi::SimulationOptions options;
  options.platform = "cluster:2";
  options.model = "test-counting";
  options.hostfile = scratch.write("hosts.txt", "node-0:4\nnode-1:4\n");
  options.collective_algorithms["allgather"] = algorithm;
  mpi::Simulation simulation(options, 8);
  simulation.world().launch([&](mpi::Rank& rank) {
    simulation.collectives().run(rank, rank.world().comm_world(), call_for(mpi::Collective::Allgather, 0, 8));
  });
  simulation.engine().run();
  Messages out = traffic();
  std::sort(out.begin(), out.end());
  return out;
}

// `count` copies of a message.
Messages times(int count, Sent message)
{
  return Messages(static_cast<size_t>(count), message);
}

void expect_on_two_nodes(const std::string& algorithm, Messages expected)
{
  std::sort(expected.begin(), expected.end());
  const Messages got = on_two_nodes(algorithm);
  EXPECT_EQ(got, expected) << algorithm << ", got:\n" << describe(got) << "expected:\n" << describe(expected);
}

// Phase 1 of smp_simple and SMP_NTS: a ring of 3 sendrecv steps inside each node, 4 ranks each sending B 3 times.
Messages ring_in_nodes()
{
  return times(12, {0, 0, B}) + times(12, {1, 1, B});
}

// smp_simple: the node ring; leaders swap their node's 4 blocks; each leader sends all 8 blocks to its 3 ranks.
TEST(mpi_coll_allgather, SmpSimpleOnTwoNodes)
{
  expect_on_two_nodes("smp_simple", ring_in_nodes() + Messages{{0, 1, 4 * B}, {1, 0, 4 * B}} + times(3, {0, 0, 8 * B}) +
                                        times(3, {1, 1, 8 * B}));
}

// SMP_NTS: the node ring; the leader ring of 2 sends each leader's group of 4 blocks to the other; the group received
// travels down the chain local 0 -> 1 -> 2 -> 3 of each node.
TEST(mpi_coll_allgather, SmpNtsOnTwoNodes)
{
  expect_on_two_nodes("SMP_NTS", ring_in_nodes() + Messages{{0, 1, 4 * B}, {1, 0, 4 * B}} + times(3, {0, 0, 4 * B}) +
                                     times(3, {1, 1, 4 * B}));
}

// loosely_lr: 2 steps; in the first each rank r sends its block to r+4 (on the other node); in both each rank sends
// the step's block to its 3 node mates.
TEST(mpi_coll_allgather, LooselyLrOnTwoNodes)
{
  expect_on_two_nodes("loosely_lr",
                      times(4, {0, 1, B}) + times(4, {1, 0, B}) + times(24, {0, 0, B}) + times(24, {1, 1, B}));
}

// mvapich2_smp: linear gather to each leader (3 blocks), rdb between the 2 leaders (2 is a power of two, 8000 B <
// 512 KiB: one exchange of 4 blocks), binomial bcast of 8 blocks in each node (local 0 -> 2, 0 -> 1, 2 -> 3).
TEST(mpi_coll_allgather, Mvapich2SmpOnTwoNodes)
{
  const Messages gathers = times(3, {0, 0, B}) + times(3, {1, 1, B});
  const Messages bcasts = times(3, {0, 0, 8 * B}) + times(3, {1, 1, 8 * B});
  expect_on_two_nodes("mvapich2_smp", gathers + Messages{{0, 1, 4 * B}, {1, 0, 4 * B}} + bcasts);
}

// Dates on a star of 8 hosts (zero latency, 1 GBps private links, the fluid model: a 1e6-B message alone on its
// links takes 1 ms) for 1e6-B blocks:
//   ring, pair, NTSLR, NTSLR_NB: 7 steps, each rank sending one block on its own uplink to a distinct downlink: 7 ms;
//   spreading_simple: 7 sends at once, 7 flows on every uplink and downlink: 7 ms;
//   rdb, bruck: steps of 1, 2 and 4 blocks: 7 ms;
//   ompi_neighborexchange: one block, then 3 steps of 2 blocks: 7 ms;
//   rhv: the bit-reversal swap (1<->4, 3<->6: 1 ms; every pair of the next step waits for one of them), then steps of
//   1, 2 and 4 blocks: 8 ms.
TEST(mpi_coll_allgather, DatesOnAStar)
{
  const struct {
    const char* algorithm;
    double date;
  } cases[] = {{"ring", 7e-3},
               {"pair", 7e-3},
               {"NTSLR", 7e-3},
               {"NTSLR_NB", 7e-3},
               {"rdb", 7e-3},
               {"bruck", 7e-3},
               {"spreading_simple", 7e-3},
               {"ompi_neighborexchange", 7e-3},
               {"rhv", 8e-3}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.algorithm);
    const CollectiveRun run =
        run_collective(mpi::Collective::Allgather, c.algorithm, 8, "fluid", "cluster:8,bw=1GBps,lat=0s", [](int me) {
          mpi::CollectiveCall call = call_for(mpi::Collective::Allgather, me, 8);
          call.bytes = call.recv_bytes = 1e6;
          return call;
        });
    for (int rank = 0; rank < 8; ++rank)
      EXPECT_NEAR(run.returned[rank], c.date, 1e-9 * c.date) << "rank " << rank;
  }
}

} // namespace
