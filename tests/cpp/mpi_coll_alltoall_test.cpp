// Expected messages of the alltoall algorithms on 5 ranks (B = 1000 B per block; mpi_collectives_test.cpp checks
// that each algorithm sends exactly these), derived from the algorithms' definitions. 5 is not a power of two, so
// the "pair" family runs its ring schedule (step i: send to me+i, receive from me-i); step 0 is the own block, a
// local copy. The library's barrier is the default one, Open MPI's linear barrier: 4 empty messages to rank 0, then
// 4 from it.
#include "support/CollectiveMessages.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

constexpr int P = 5;

Messages every_pair()
{
  return all_pairs(P, [](int, int) { return B; });
}
Messages barriers(int count)
{
  Messages out;
  for (int k = 0; k < count; ++k)
    out = out + to_root(P, 0, [](int) { return 0.0; }) + from_root(P, 0, [](int) { return 0.0; });
  return out;
}
// Light barriers: after steps 1..P-2, 1 byte to the next step's source, me-(i+1): me-2, me-3, me-4 = me+3, me+2, me+1.
Messages light_syncs()
{
  Messages out;
  for (int me = 0; me < P; ++me)
    for (int d : {1, 2, 3})
      out.push_back({me, (me + d) % P, 1});
  return out;
}

// ring: steps 1..4 send B to me+i: every ordered pair once.
const ExpectMessages kRing("alltoall/ring", [] { return every_pair(); });
// *_light_barrier: the ring steps plus the 1-byte syncs.
const ExpectMessages kPairLight("alltoall/pair_light_barrier", [] { return every_pair() + light_syncs(); });
const ExpectMessages kRingLight("alltoall/ring_light_barrier", [] { return every_pair() + light_syncs(); });
// *_mpi_barrier: a barrier before each of the 5 steps (step 0 included).
const ExpectMessages kPairMpi("alltoall/pair_mpi_barrier", [] { return every_pair() + barriers(5); });
const ExpectMessages kRingMpi("alltoall/ring_mpi_barrier", [] { return every_pair() + barriers(5); });
// *_one_barrier: one barrier, then the steps.
const ExpectMessages kPairOne("alltoall/pair_one_barrier", [] { return every_pair() + barriers(1); });
const ExpectMessages kRingOne("alltoall/ring_one_barrier", [] { return every_pair() + barriers(1); });
// 2dmesh: 5 is prime, no grid: basic_linear, every ordered pair once.
const ExpectMessages k2dmesh("alltoall/2dmesh", [] { return every_pair(); });
// 3dmesh: floor(cbrt 5) = 1 divides 5: a 1 x 1 x 5 mesh; rows and columns are single ranks (no messages), and each
// rank sends the 1 block its plane holds for each of the 4 other planes: every ordered pair once.
const ExpectMessages k3dmesh("alltoall/3dmesh", [] { return every_pair(); });
// mvapich2_scatter_dest: blocks of 4 peers starting with oneself (the own block is a message to oneself), then the
// last peer: every ordered pair once, plus me -> me.
const ExpectMessages kScatterDest("alltoall/mvapich2_scatter_dest", [] {
  Messages out = every_pair();
  for (int me = 0; me < P; ++me)
    out.push_back({me, me, B});
  return out;
});
// pair_rma: window creation = the default allgather (linear: every ordered pair, 8 B); fences and free = 6 barriers;
// the puts: every ordered pair once, B.
const ExpectMessages kPairRma("alltoall/pair_rma",
                              [] { return all_pairs(P, [](int, int) { return 8.0; }) + barriers(6) + every_pair(); });
// rdb: allgather of whole buffers (5 B = 5000 B per rank) by recursive doubling.
//   mask 1: 0<->1, 2<->3 (5000 each way); 4's partner 5 does not exist, and its group {5} is empty: nothing to pass.
//   mask 2: 0<->2, 1<->3 with 10000 each way (4's partner 6 does not exist; no rank of group {4,5} received).
//   mask 4: 0<->4: 0 sends 20000, 4 sends 5000. Ranks 1..3 have no partner (5..7): group {4..7} is cut by P, and
//     only rank 0 of {0..3} received (complete = 5 - 0 - 4 = 1); it passes its 5000 B down by halving: 0->2, 0->1,
//     then 2->3.
const ExpectMessages kRdb("alltoall/rdb", [] {
  return Messages{{0, 1, 5000},  {1, 0, 5000},  {2, 3, 5000}, {3, 2, 5000}, {0, 2, 10000}, {2, 0, 10000}, {1, 3, 10000},
                  {3, 1, 10000}, {0, 4, 20000}, {4, 0, 5000}, {0, 2, 5000}, {0, 1, 5000},  {2, 3, 5000}};
});

// On 8 ranks (a power of two) pair_light_barrier pairs by XOR: step i exchanges B with me^i (every ordered pair once),
// and after steps 1..6 a 1-byte sync goes to the next partner me^(i+1): me^2, ..., me^7.
TEST(mpi_coll_alltoall, PairLightBarrierPairsByXorOnEightRanks)
{
  Messages expected = all_pairs(8, [](int, int) { return B; });
  for (int me = 0; me < 8; ++me)
    for (int k = 2; k < 8; ++k)
      expected.push_back({me, me ^ k, 1});
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(run_collective(mpi::Collective::Alltoall, "pair_light_barrier", 8).messages, expected);
}

// Dates on a star of 1 GBps links with no latency (fluid model), 8 ranks, 1e6-B blocks: a lone message of n MB takes
// n ms, and a blocking exchange returns when its data has arrived (rendezvous).
//   ring: 7 steps, each rank sending on its own uplink to me+i and receiving on its own downlink: 7 * 1 ms = 7 ms.
//   pair_one_barrier, pair_mpi_barrier: the same 7 exchanges (rank XOR i); the barriers' empty messages take no time.
//   rdb: exchanges of everything held, 8 MB, 16 MB, then 32 MB, each on its own pair of links: 56 ms.
TEST(mpi_coll_alltoall, DatesOnAStar)
{
  const struct {
    const char* algorithm;
    double date;
  } cases[] = {{"ring", 7e-3}, {"pair_one_barrier", 7e-3}, {"pair_mpi_barrier", 7e-3}, {"rdb", 56e-3}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.algorithm);
    const CollectiveRun run =
        run_collective(mpi::Collective::Alltoall, c.algorithm, 8, "fluid", "cluster:8,bw=1GBps,lat=0s", [](int me) {
          mpi::CollectiveCall call = call_for(mpi::Collective::Alltoall, me, 8);
          call.bytes = call.recv_bytes = 1e6;
          return call;
        });
    for (int rank = 0; rank < 8; ++rank)
      EXPECT_NEAR(run.returned[rank], c.date, 1e-9 * c.date) << "rank " << rank;
  }
}

} // namespace
