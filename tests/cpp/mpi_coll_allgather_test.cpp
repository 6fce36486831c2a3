// Expected messages of the allgather algorithms on 5 ranks, one per host (B = 1000 B per block; the SMP-aware
// algorithms see one rank per node). Each list is derived by hand from the algorithm's definition (its header).
#include "support/CollectiveMessages.hpp"

using namespace mpisim::testing_support;

namespace {

constexpr int P = 5;

Messages every_pair_B() { return all_pairs(P, [](int, int) { return B; }); }

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
  return {{0, 1, B},     {1, 0, B},     {2, 3, B},     {3, 2, B},     {0, 2, 2 * B}, {2, 0, 2 * B}, {1, 3, 2 * B},
          {3, 1, 2 * B}, {0, 4, 4 * B}, {4, 0, B},     {0, 2, B},     {0, 1, B},     {2, 3, B}};
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

} // namespace
