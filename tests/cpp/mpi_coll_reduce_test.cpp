// Expected messages of the reduce algorithms on 5 ranks (root 2, B = 1000 B, commutative operation), derived by
// hand from each algorithm's definition; mpi_collectives_test.cpp checks every registered algorithm against them.
#include "support/CollectiveMessages.hpp"

using namespace mpisim::testing_support;

namespace {

// flat_tree, ompi_basic_linear: every other rank sends B to the root.
const ExpectMessages kFlatTree("reduce/flat_tree", [] { return to_root(5, kRoot, [](int) { return B; }); });
const ExpectMessages kOmpiBasicLinear("reduce/ompi_basic_linear",
                                      [] { return to_root(5, kRoot, [](int) { return B; }); });

// binomial, commutative: tree rooted at 2, relative ranks r = (me - 2) mod 5 (r0..r4 = ranks 2, 3, 4, 0, 1).
// mask 1: r1 -> r0, r3 -> r2; mask 2: r2 -> r0; mask 4: r4 -> r0. So 3->2, 0->4, 4->2, 1->2.
const ExpectMessages kBinomial("reduce/binomial", [] { return Messages{{3, 2, B}, {0, 4, B}, {4, 2, B}, {1, 2, B}}; });

} // namespace

namespace {

// The Open MPI tuned reductions (ompi_segmented_reduction.hpp). B = 1000 B is below every segment size (1, 32, 64 KiB
// rules below), so each edge of the tree carries one message of B from child to parent. Shifted ranks s = (me - 2)
// mod 5: s0..s4 = ranks 2, 3, 4, 0, 1.
// ompi_chain: fanout 5/2 = 2 chains of length (5-1)/2 = 2 from the root: s1 <- s2 and s3 <- s4, so 4->3, 3->2,
// 1->0, 0->2.
const ExpectMessages kOmpiChain("reduce/ompi_chain", [] {
  return Messages{{4, 3, B}, {3, 2, B}, {1, 0, B}, {0, 2, B}};
});
// ompi_pipeline: one chain s0 <- s1 <- s2 <- s3 <- s4 (segment 32 KiB: 5 > 0.0033/1024*1000 + 1.6761).
const ExpectMessages kOmpiPipeline("reduce/ompi_pipeline", [] {
  return Messages{{1, 0, B}, {0, 4, B}, {4, 3, B}, {3, 2, B}};
});
// ompi_binary: level order of the shifted ranks: s0 has children s1, s2; s1 has s3, s2 has s4: 3->2, 4->2, 0->3,
// 1->4.
const ExpectMessages kOmpiBinary("reduce/ompi_binary", [] {
  return Messages{{3, 2, B}, {4, 2, B}, {0, 3, B}, {1, 4, B}};
});
// ompi_binomial (unsegmented: 5 ranks < 8 and B < 20480): in-order binomial tree on s: s0 has s1, s2, s4; s2 has
// s3: 3->2, 4->2, 1->2, 0->4.
const ExpectMessages kOmpiBinomial("reduce/ompi_binomial", [] {
  return Messages{{3, 2, B}, {4, 2, B}, {1, 2, B}, {0, 4, B}};
});
// ompi_in_order_binary: in-order binary tree rooted at 4 (no shift): 4 has children 3 (ranks 2..3) and 1 (ranks
// 0..1); 3 has 2, 1 has 0. Then 4 sends the result to the root 2.
const ExpectMessages kOmpiInOrderBinary("reduce/ompi_in_order_binary", [] {
  return Messages{{3, 4, B}, {1, 4, B}, {2, 3, B}, {0, 1, B}, {4, 2, B}};
});

} // namespace

namespace {

// NTSL: B <= 8 KiB, no pipeline: the chain root-1 -> root-2 -> ... -> root+1 -> root, i.e. 1->0, 0->4, 4->3, 3->2.
const ExpectMessages kNTSL("reduce/NTSL", [] { return Messages{{1, 0, B}, {0, 4, B}, {4, 3, B}, {3, 2, B}}; });

// mvapich2_knomial (k = 4), relative ranks r = (me - 2) mod 5: r1..r3 are not multiples of 4 and send to r0; r4 is
// a multiple of 4 but not of 16 and sends to r0 too. So every other rank sends B to the root.
const ExpectMessages kMvapich2Knomial("reduce/mvapich2_knomial",
                                      [] { return to_root(5, kRoot, [](int) { return B; }); });

} // namespace

namespace {

// scatter_gather: 4 = largest power of two, remain 1: rank 1 sends its 1000 B to rank 0 and drops out; new ranks
// n0..n3 = ranks 0, 2, 3, 4, four blocks of 250 B.
// Reduce-scatter, distance 1: n0<->n1 (0<->2) and n2<->n3 (3<->4) swap halves, 500 B each way; distance 2:
// n0<->n2 (0<->3) and n1<->n3 (2<->4) swap one block, 250 B each way. Now n0..n3 hold blocks 0, 2, 1, 3.
// Gather to the root 2 = n1: distance 2: n2 (3) sends block 1 to n0 (0), n3 (4) sends block 3 to n1 (2), 250 B;
// distance 1: n0 (0) sends blocks 0..1 to n1 (2), 500 B.
const ExpectMessages kScatterGather("reduce/scatter_gather", [] {
  return Messages{{1, 0, B},   {0, 2, 500}, {2, 0, 500}, {3, 4, 500}, {4, 3, 500}, {0, 3, 250},
                  {3, 0, 250}, {2, 4, 250}, {4, 2, 250}, {3, 0, 250}, {4, 2, 250}, {0, 2, 500}};
});

} // namespace

namespace {

// rab: 4 = largest power of two, r = 1: ranks 0 and 1 swap halves (0->1 and 1->0, 500 B), then 1 sends its reduced
// half to 0 (500 B). New ranks n0..n3 = ranks 0, 2, 3, 4.
// Halving, distance 1: n0<->n1 (0<->2), n2<->n3 (3<->4), 500 B each way; distance 2: n0<->n2 (0<->3), n1<->n3
// (2<->4), 250 B each way.
// Gather to the root 2 = n1 (bits 01): level 2: n2 (3) sends its 250 B to n0 (0), n3 (4) to n1 (2); level 1: n0 (0)
// sends its 500 B half to n1 (2), and n2 (3), whose bit differs from the root's too, sends its 500 B half to n3 (4)
// (SimGrid's useless message).
const ExpectMessages kRab("reduce/rab", [] {
  return Messages{{0, 1, 500}, {1, 0, 500}, {1, 0, 500}, {0, 2, 500}, {2, 0, 500},
                  {3, 4, 500}, {4, 3, 500}, {0, 3, 250}, {3, 0, 250}, {2, 4, 250},
                  {4, 2, 250}, {3, 0, 250}, {4, 2, 250}, {0, 2, 500}, {3, 4, 500}};
});

} // namespace

namespace {

// mvapich2_two_level: one rank per host, so no reduction within nodes; the 5 leaders run MPICH's choice, binomial
// (B = 1000 B < 2048 B), rooted at 2: the binomial list above.
const ExpectMessages kMvapich2TwoLevel("reduce/mvapich2_two_level", [] {
  return Messages{{3, 2, B}, {0, 4, B}, {4, 2, B}, {1, 2, B}};
});

} // namespace

namespace {

// arrival_pattern_aware (B <= 8 KiB, whole buffers): every rank starts at once, so rank 0's first round of probes
// finds the 1-byte notices of ranks 1..4 and makes one chain 1 -> 2 -> 3 -> 4 -> 0. Notices 1..4 -> 0 (1 B); the
// header (1024 ints, 4096 B) 0 -> 1, then forwarded 1 -> 2 -> 3 -> 4; the data 1 -> 2 -> 3 -> 4 -> 0 (B); finally
// rank 0 sends the result to the root 2 (B).
const ExpectMessages kArrivalPatternAware("reduce/arrival_pattern_aware", [] {
  const double notice = 1;
  const double header = 4096;
  return Messages{{1, 0, notice}, {2, 0, notice}, {3, 0, notice}, {4, 0, notice}, {0, 1, header},
                  {1, 2, header}, {2, 3, header}, {3, 4, header}, {1, 2, B},      {2, 3, B},
                  {3, 4, B},      {4, 0, B},      {0, 2, B}};
});

} // namespace
