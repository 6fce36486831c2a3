// Expected messages of the allreduce algorithms on 5 ranks, one per host (B = 1000 B, one-byte elements: n = 1000;
// the library's own choices are the default selector's: alltoall basic_linear and allgather linear_nbc on 5 ranks,
// every ordered pair once). Each list is derived by hand from the algorithm's definition (its header).
#include "support/CollectiveMessages.hpp"

#include <gtest/gtest.h>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

constexpr int P = 5;

Messages both_ways(int a, int b, double bytes) { return {{a, b, bytes}, {b, a, bytes}}; }

// Fold of 5 ranks onto pof2 = 4: rank 0 gives its vector to 1 first and gets the result back last; new ranks
// 0, 1, 2, 3 are ranks 1, 2, 3, 4.
Messages fold_of_five() { return {{0, 1, B}, {1, 0, B}}; }

// rdb: after the fold, mask 1 pairs new ranks 0-1, 2-3 (ranks 1-2, 3-4), mask 2 pairs 0-2, 1-3 (ranks 1-3, 2-4);
// every exchange is the whole vector both ways.
Messages rdb()
{
  return fold_of_five() + both_ways(1, 2, B) + both_ways(3, 4, B) + both_ways(1, 3, B) + both_ways(2, 4, B);
}
const ExpectMessages kRdb("allreduce/rdb", rdb);

// rab_rdb: after the fold, 4 blocks of 250 B. Reduce-scatter: mask 1 exchanges halves (500 B) between ranks 1-2 and
// 3-4, mask 2 quarters (250 B) between ranks 1-3 and 2-4. The allgather does the same exchanges again in reverse
// order with the same sizes.
Messages rab_rdb()
{
  const Messages halves = both_ways(1, 2, B / 2) + both_ways(3, 4, B / 2);
  const Messages quarters = both_ways(1, 3, B / 4) + both_ways(2, 4, B / 4);
  return fold_of_five() + halves + quarters + quarters + halves;
}
const ExpectMessages kRabRdb("allreduce/rab_rdb", rab_rdb);
// rab1: 5 is not a power of two: rab_rdb.
const ExpectMessages kRab1("allreduce/rab1", rab_rdb);

// lr: n = 1000 is a multiple of 5: blocks of 200 B, 4 reduce-scatter and 4 allgather steps, each rank sending one
// block to its right neighbour per step.
Messages lr()
{
  Messages out;
  for (int me = 0; me < P; ++me)
    for (int i = 0; i < 2 * (P - 1); ++i)
      out.push_back({me, (me + 1) % P, B / P});
  return out;
}
const ExpectMessages kLr("allreduce/lr", lr);

// rab2: blocks of n / 5 = 200 B: an alltoall then an allgather, each every ordered pair once.
Messages rab2()
{
  return all_pairs(P, [](int, int) { return B / P; }) + all_pairs(P, [](int, int) { return B / P; });
}
const ExpectMessages kRab2("allreduce/rab2", rab2);

// The smp_* algorithms see one rank per node here (cores = 1, 5 nodes): only the leaders' stages send.
// smp_binomial: binomial reduce onto 0 (mask 1: 1->0, 3->2; mask 2: 2->0; mask 4: 4->0), then binomial broadcast
// from 0 (0->4, 0->2, 0->1; 2->3), all B.
Messages smp_binomial()
{
  return Messages{{1, 0, B}, {3, 2, B}, {2, 0, B}, {4, 0, B}} + Messages{{0, 4, B}, {0, 2, B}, {0, 1, B}, {2, 3, B}};
}
const ExpectMessages kSmpBinomial("allreduce/smp_binomial", smp_binomial);
// smp_binomial_pipeline: n = 1000 < 4096, a single segment of 1000 B: smp_binomial's messages.
const ExpectMessages kSmpBinomialPipeline("allreduce/smp_binomial_pipeline", smp_binomial);
// smp_rdb: the leaders (all ranks) run rdb.
const ExpectMessages kSmpRdb("allreduce/smp_rdb", rdb);

// smp_rsag, smp_rsag_lr: the leaders' ring over 5 blocks of 200 B (n mod 5 = 0): lr's messages.
const ExpectMessages kSmpRsag("allreduce/smp_rsag", lr);
const ExpectMessages kSmpRsagLr("allreduce/smp_rsag_lr", lr);
// smp_rsag_rab: 5 is not a power of two: smp_rdb, that is rdb's messages.
const ExpectMessages kSmpRsagRab("allreduce/smp_rsag_rab", rdb);

// mvapich2_rs: n = 1000 >= pof2 = 4: rab_rdb's messages.
const ExpectMessages kMvapich2Rs("allreduce/mvapich2_rs", rab_rdb);
// mvapich2_two_level: each node has one rank (no intra-node message), so the leaders' rdb over all 5 ranks.
const ExpectMessages kMvapich2TwoLevel("allreduce/mvapich2_two_level", rdb);

} // namespace
