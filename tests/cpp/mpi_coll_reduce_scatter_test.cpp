// Expected messages of the reduce_scatter algorithms on 5 ranks (counts c = 10, 20, 30, 40, 50 B, total 150,
// commutative operation), derived by hand from each algorithm's definition; mpi_collectives_test.cpp checks every
// registered algorithm against them.
#include "support/CollectiveMessages.hpp"

using namespace mpisim::testing_support;

namespace {

double block(int b)
{
  return 10.0 * (b + 1);
}

// ompi_ring: block b starts at rank b+1 and travels b+1 -> b+2 -> ... -> b, so every rank r sends every block but
// its own to r+1.
const ExpectMessages kOmpiRing("reduce_scatter/ompi_ring", [] {
  Messages out;
  for (int r = 0; r < 5; ++r)
    for (int b = 0; b < 5; ++b)
      if (b != r)
        out.push_back({r, (r + 1) % 5, block(b)});
  return out;
});

// ompi_basic_recursivehalving: 4 = largest power of two, remain 1: rank 0 sends its 150 B to rank 1 and drops out.
// New ranks n0..n3 = ranks 1..4, blocks 30 (c0+c1), 30, 40, 50.
// Distance 2: n0<->n2 (1<->3), n1<->n3 (2<->4): the lower keeps blocks n0,n1 (60 B) and sends n2,n3 (90 B).
// Distance 1: n0<->n1 (1<->2): 30 B each way; n2<->n3 (3<->4): 3 sends n3's 50 B, 4 sends n2's 40 B.
// Finally rank 1 sends rank 0 its block c0 = 10 B.
const ExpectMessages kOmpiRecursiveHalving("reduce_scatter/ompi_basic_recursivehalving", [] {
  return Messages{{0, 1, 150}, {1, 3, 90}, {3, 1, 60}, {2, 4, 90}, {4, 2, 60},
                  {1, 2, 30},  {2, 1, 30}, {3, 4, 50}, {4, 3, 40}, {1, 0, 10}};
});

// mpich_noncomm: 5 is not a power of two, so mpich_pair runs: every ordered pair, the destination's block.
const ExpectMessages kMpichNoncomm("reduce_scatter/mpich_noncomm", [] {
  return all_pairs(5, [](int, int destination) { return block(destination); });
});

// ompi_butterfly: rank 0 sends its 150 B to rank 1 and drops out; v0..v3 = ranks 1..4, combined blocks
// B0 = c0+c1 = 30, B1 = 30, B2 = 40, B3 = 50.
// Distance 1: v0<->v1 (1<->2), v2<->v3 (3<->4): the even v keeps B0,B1 (60) and sends B2,B3 (90).
// Distance 2: v0<->v2 (1<->3): B1 and B0, 30 each way; v1<->v3 (2<->4): 2 keeps B2 and sends B3 (50), 4 sends B2
// (40). Now v0, v1, v2, v3 hold B0, B2, B1, B3 and swap with mirror(v) = v0, v2, v1, v3: rank 1 sends c0 (10) to
// rank 0 and keeps c1; 2<->3 swap c3 (40) and c2 (30); rank 4 keeps B3.
const ExpectMessages kOmpiButterfly("reduce_scatter/ompi_butterfly", [] {
  return Messages{{0, 1, 150}, {1, 2, 90}, {2, 1, 60}, {3, 4, 90}, {4, 3, 60}, {1, 3, 30},
                  {3, 1, 30},  {2, 4, 50}, {4, 2, 40}, {1, 0, 10}, {2, 3, 40}, {3, 2, 30}};
});

} // namespace
