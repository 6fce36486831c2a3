// Barrier algorithms of Open MPI, MPICH and MVAPICH2 (as SimGrid 3.32 runs them): their messages on 5 ranks (one
// rank per host), derived by hand below; all messages are empty.
#include "support/CollectiveMessages.hpp"

#include <gtest/gtest.h>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

// Recursive doubling on 5 ranks: A = 4. Rank 4 enters with a sendrecv with 0 (4->0), rank 0 receives it; ranks 0..3
// exchange at distance 1 (0<->1, 2<->3) and 2 (0<->2, 1<->3); rank 0 releases rank 4 (0->4). MVAPICH2's pairwise
// barrier sends the same; two_procs, on 5 ranks, runs recursive doubling.
Messages recursive_doubling_on_five()
{
  return {{4, 0, 0}, {0, 1, 0}, {1, 0, 0}, {2, 3, 0}, {3, 2, 0},
          {0, 2, 0}, {2, 0, 0}, {1, 3, 0}, {3, 1, 0}, {0, 4, 0}};
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
