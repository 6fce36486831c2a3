// Expected messages of the alltoallv algorithms on 5 ranks (rank i sends 100 i + j + 1 B to rank j, see call_for;
// mpi_collectives_test.cpp checks that each algorithm sends exactly these), derived from the algorithms'
// definitions. 5 is not a power of two: the "pair" family and "ring" use the ring schedule (step i: send to me+i,
// receive from me-i); step 0 is the own block, a local copy. The library's barrier is Open MPI's linear barrier: 4
// empty messages to rank 0, then 4 from it.
#include "support/CollectiveMessages.hpp"

#include <gtest/gtest.h>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

constexpr int P = 5;

Messages every_pair()
{
  return all_pairs(P, [](int i, int j) { return 100.0 * i + j + 1; });
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

// pair, ring: steps 1..4, each rank's block for me+i: every ordered pair once with the sender's size.
const ExpectMessages kPair("alltoallv/pair", [] { return every_pair(); });
const ExpectMessages kRing("alltoallv/ring", [] { return every_pair(); });
// bruck (throttled linear, own block copied) and ompi_basic_linear: every ordered pair once.
const ExpectMessages kBruck("alltoallv/bruck", [] { return every_pair(); });
const ExpectMessages kOmpiLinear("alltoallv/ompi_basic_linear", [] { return every_pair(); });
// *_light_barrier: the steps plus the 1-byte syncs.
const ExpectMessages kPairLight("alltoallv/pair_light_barrier", [] { return every_pair() + light_syncs(); });
const ExpectMessages kRingLight("alltoallv/ring_light_barrier", [] { return every_pair() + light_syncs(); });
// *_mpi_barrier: a barrier before each of the 5 steps; *_one_barrier: one barrier first.
const ExpectMessages kPairMpi("alltoallv/pair_mpi_barrier", [] { return every_pair() + barriers(5); });
const ExpectMessages kRingMpi("alltoallv/ring_mpi_barrier", [] { return every_pair() + barriers(5); });
const ExpectMessages kPairOne("alltoallv/pair_one_barrier", [] { return every_pair() + barriers(1); });
const ExpectMessages kRingOne("alltoallv/ring_one_barrier", [] { return every_pair() + barriers(1); });

} // namespace
