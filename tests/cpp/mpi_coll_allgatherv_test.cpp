// Expected messages of the allgatherv algorithms on 5 ranks, one per host: rank r contributes c(r) = 10 (r + 1) bytes
// (call_for), 150 B in all. Each list is derived by hand from the algorithm's definition (its header).
#include "support/CollectiveMessages.hpp"

using namespace mpisim::testing_support;

namespace {

constexpr int P = 5;

double c(int r)
{
  return 10.0 * ((r + P) % P + 1);
}

// Every rank sends its own block to every other rank.
Messages own_block_to_all()
{
  return all_pairs(P, [](int i, int) { return c(i); });
}

// ring: step i = 1..4 sends the own block to me+i.
const ExpectMessages kRing("allgatherv/ring", own_block_to_all);
// pair, ompi_neighborexchange: 5 is neither a power of two nor even, so ring.
const ExpectMessages kPair("allgatherv/pair", own_block_to_all);
const ExpectMessages kNeighbor("allgatherv/ompi_neighborexchange", own_block_to_all);

// GB: linear gatherv to 0 (i -> 0, c(i)), then binomial bcast from 0 of the 150 B up to the end of the last block:
// 0->4, 0->2, 0->1, 2->3.
const ExpectMessages kGB("allgatherv/GB", [] {
  return to_root(P, 0, [](int i) { return c(i); }) + Messages{{0, 4, 150}, {0, 2, 150}, {0, 1, 150}, {2, 3, 150}};
});

// ompi_bruck: distance 1 sends block me to me-1; distance 2 (<= 5/2) sends blocks me, me+1 to me-2; distance 4
// (> 5/2) sends 5-4 = 1 block, me's, to me-4 = me+1.
const ExpectMessages kBruck("allgatherv/ompi_bruck", [] {
  Messages out;
  for (int me = 0; me < P; ++me)
    out = out + Messages{{me, (me + 4) % P, c(me)}, {me, (me + 3) % P, c(me) + c(me + 1)}, {me, (me + 1) % P, c(me)}};
  return out;
});

// mpich_rdb: each exchange sends the sender's subtree's blocks. mask 1: 0<->1 (10, 20), 2<->3 (30, 40). mask 2:
// 0<->2 and 1<->3 (blocks 0,1 = 30; blocks 2,3 = 70). mask 4: 0->4 blocks 0..3 (100), 4->0 block 4 (50); in subtree
// {0..3} only 0 has block 4: halving passes it 0->2, then 0->1 and 2->3.
const ExpectMessages kRdb("allgatherv/mpich_rdb", [] {
  return Messages{{0, 1, 10}, {1, 0, 20},  {2, 3, 30}, {3, 2, 40}, {0, 2, 30}, {2, 0, 70}, {1, 3, 30},
                  {3, 1, 70}, {0, 4, 100}, {4, 0, 50}, {0, 2, 50}, {0, 1, 50}, {2, 3, 50}};
});

// mpich_ring: pieces of 262144 B exceed every block, so each block moves whole: each rank sends to me+1 the blocks
// of me, me-1, me-2, me-3 (all but its right neighbour's own).
const ExpectMessages kMpichRing("allgatherv/mpich_ring", [] {
  Messages out;
  for (int me = 0; me < P; ++me)
    for (int i = 0; i < P - 1; ++i)
      out.push_back({me, (me + 1) % P, c(me - i)});
  return out;
});

} // namespace
