// The messages of SimGrid 3.32's bcast algorithms on 5 ranks (root 2, B = 1000 B, one rank per host), worked out
// by hand from each algorithm's definition (see the header comment of src/mpi/collectives/bcast_<name>.cpp);
// mpi_collectives_test.cpp checks that each algorithm sends exactly these. B is below every segment size (8192 B),
// so segmented algorithms send the whole buffer at once, and one rank per host makes the SMP-aware ones see nodes
// of one rank.
#include "support/CollectiveMessages.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace {

using namespace mpisim::testing_support;

// flattree: the root sends B to every other rank. flattree_pipeline: B < one segment, so it runs flattree.
const ExpectMessages kFlattree("bcast/flattree", [] { return from_root(5, kRoot, [](int) { return B; }); });
const ExpectMessages kFlattreePipeline("bcast/flattree_pipeline",
                                       [] { return from_root(5, kRoot, [](int) { return B; }); });

// NTSL, NTSL_Isend: the root hands the buffer to rank 0 (2->0), then the chain 0->1->2->3->4, whole buffer.
Messages chain_from_zero()
{
  return {{2, 0, B}, {0, 1, B}, {1, 2, B}, {2, 3, B}, {3, 4, B}};
}
const ExpectMessages kNtsl("bcast/NTSL", chain_from_zero);
const ExpectMessages kNtslIsend("bcast/NTSL_Isend", chain_from_zero);

// NTSB: 2->0, then the binary tree from 0 (children 2r+1, 2r+2): 0->1, 0->2, 1->3, 1->4.
// SMP_binary with one rank per node: only the tree between node leaders remains, node n feeding 2n+1 and 2n+2:
// the same messages.
Messages binary_tree_from_zero()
{
  return {{2, 0, B}, {0, 1, B}, {0, 2, B}, {1, 3, B}, {1, 4, B}};
}
const ExpectMessages kNtsb("bcast/NTSB", binary_tree_from_zero);
const ExpectMessages kSmpBinary("bcast/SMP_binary", binary_tree_from_zero);

// SMP_binomial with one rank per node: 2->0, then the binomial tree over the 5 leaders from 0: 0 sends at masks 4,
// 2, 1 (0->4, 0->2, 0->1), rank 2 (bit 2 set) forwards at mask 1 (2->3); no intra-node traffic.
const ExpectMessages kSmpBinomial("bcast/SMP_binomial", [] {
  return Messages{{2, 0, B}, {0, 4, B}, {0, 2, B}, {0, 1, B}, {2, 3, B}};
});

// SMP_linear with one rank per node runs binomial_tree (see its header): relative ranks (me - 2) mod 5, the root
// sends to relative 4, 2, 1 (ranks 1, 4, 3), relative 2 (rank 4) forwards to relative 3 (rank 0).
const ExpectMessages kSmpLinear("bcast/SMP_linear", [] {
  return Messages{{2, 1, B}, {2, 4, B}, {2, 3, B}, {4, 0, B}};
});

// The binomial scatter of scatter_LR_allgather and scatter_rdb_allgather: pieces of ceil(1000 / 5) = 200 B;
// relative ranks r = (me - 2) mod 5 (ranks 2, 3, 4, 0, 1 are r = 0..4). The root holds 1000 B and sends, at mask 4,
// 1000 - 4*200 = 200 B to r4 (rank 1), at mask 2, 800 - 2*200 = 400 B to r2 (rank 4), at mask 1, 400 - 200 = 200 B
// to r1 (rank 3); r2 holds 400 B and sends 400 - 200 = 200 B to r3 (rank 0).
Messages binomial_scatter()
{
  return {{2, 1, 200}, {2, 4, 400}, {2, 3, 200}, {4, 0, 200}};
}

// scatter_LR_allgather: then a ring of 4 steps, each rank sending one full 200 B piece to its right neighbour.
const ExpectMessages kScatterLr("bcast/scatter_LR_allgather", [] {
  Messages ring;
  for (int step = 0; step < 4; ++step)
    for (int me = 0; me < 5; ++me)
      ring.push_back({me, (me + 1) % 5, 200});
  return binomial_scatter() + ring;
});

// scatter_rdb_allgather: then recursive doubling over relative ranks, each sending all it holds:
//   mask 1: r0<->r1 (ranks 2<->3), r2<->r3 (4<->0), 200 B each way; r4 has no partner.
//   mask 2: r0<->r2 (2<->4), r1<->r3 (3<->0), 400 B each way.
//   mask 4: r0<->r4 (2<->1): r0 sends its 800 B, r4 its 200 B. r1..r3 have no partner (r5..r7): their subtree
//   {r0..r3} has one rank with the missing piece (r0, which received 200 B last), passed on by halving: at
//   distance 2, r0 -> r2 (2->4); at distance 1, r0 -> r1 (2->3) and r2 -> r3 (4->0), 200 B each.
const ExpectMessages kScatterRdb("bcast/scatter_rdb_allgather", [] {
  return binomial_scatter() + Messages{{2, 3, 200}, {3, 2, 200}, {4, 0, 200}, {0, 4, 200}, {2, 4, 400},
                                       {4, 2, 400}, {3, 0, 400}, {0, 3, 400}, {2, 1, 800}, {1, 2, 200},
                                       {2, 4, 200}, {2, 3, 200}, {4, 0, 200}};
});

// ompi_pipeline: Open MPI's chain from the root, 2->3->4->0->1; 5 ranks and 1000 B give 16 KiB segments (5 is below
// 3.2118e-6 * 1000 + 8.7936), so the buffer is one segment.
const ExpectMessages kOmpiPipeline("bcast/ompi_pipeline", [] {
  return Messages{{2, 3, B}, {3, 4, B}, {4, 0, B}, {0, 1, B}};
});

// ompi_split_bintree: halves of 500 B are below one 1 KiB segment, so it runs SMP_linear, which with one rank per
// node runs binomial_tree: 2->1, 2->4, 2->3, 4->0.
const ExpectMessages kOmpiSplitBintree("bcast/ompi_split_bintree", [] {
  return Messages{{2, 1, B}, {2, 4, B}, {2, 3, B}, {4, 0, B}};
});

// mvapich2_inter_node: with one rank per node every rank leads its node; the leaders run MPICH's choice, binomial_tree
// below 12288 B (2->1, 2->4, 2->3, 4->0), and nodes of one rank have nothing more to do.
// mvapich2_intra_node: 1000 B <= 16384 B on 5 ranks goes flat with binomial_tree: the same messages.
const ExpectMessages kMvapich2InterNode("bcast/mvapich2_inter_node", [] {
  return Messages{{2, 1, B}, {2, 4, B}, {2, 3, B}, {4, 0, B}};
});
const ExpectMessages kMvapich2IntraNode("bcast/mvapich2_intra_node", [] {
  return Messages{{2, 1, B}, {2, 4, B}, {2, 3, B}, {4, 0, B}};
});

// mvapich2_knomial_intra_node: 4-nomial tree over relative ranks r = (me - 2) mod 5: the root sends at mask 4 to r4
// (rank 1), at mask 1 to r1, r2, r3 (ranks 3, 4, 0); r1..r4 have no children of their own.
const ExpectMessages kMvapich2Knomial("bcast/mvapich2_knomial_intra_node",
                                      [] { return from_root(5, kRoot, [](int) { return B; }); });

// The arrival-pattern-aware algorithms: the root hands its buffer to rank 0 first (2->0, 1000 B), and every rank but
// 0 sends rank 0 a 1-byte note (1..4 -> 0). Which ranks form a group depends on when the notes are seen: ranks 1,
// 3, 4 send theirs at once, rank 2 after its 1000 B; rank 0 starts testing only once it has the buffer, and each
// failed test injects 1e-4 s (growing), far more than a 1000 B transfer.
Messages arrival_notes()
{
  return to_root(5, 0, [](int) { return 1.0; }) + Messages{{2, 0, B}};
}
// A chain of header (1024 ints = 4096 B) and data (B, one segment) through `group` from rank 0.
Messages chain_through(const std::vector<int>& group, int from = 0)
{
  Messages out;
  for (int to : group) {
    out = out + Messages{{from, to, 4096}, {from, to, B}};
    from = to;
  }
  return out;
}

// arrival_pattern_aware_wait: three sweeps of tests see every note, so one group 1, 2, 3, 4 in rank order: the chain
// 0->1->2->3->4.
const ExpectMessages kArrivalWait("bcast/arrival_pattern_aware_wait", [] {
  return arrival_notes() + chain_through({1, 2, 3, 4});
});

// arrival_pattern_aware: one sweep per round. The first sweep reports rank 1 only (its test is the first, and the
// notes of the others are reported by later tests, after rank 0 has sent rank 1 its header and data); the second
// round finds 2, 3, 4: chains 0->1 and 0->2->3->4.
const ExpectMessages kArrivalAware("bcast/arrival_pattern_aware", [] {
  return arrival_notes() + chain_through({1}) + chain_through({2, 3, 4});
});

// arrival_scatter: three sweeps see every note: one group 1, 2, 3, 4. Rank 0 sends each its header (4096 B) and its
// piece of 1000 / 4 = 250 B; the group allgathers in a ring 1->2->3->4->1, 3 steps of 250 B.
const ExpectMessages kArrivalScatter("bcast/arrival_scatter", [] {
  Messages out = arrival_notes();
  for (int member = 1; member <= 4; ++member)
    out = out + Messages{{0, member, 4096}, {0, member, 250}};
  for (int step = 0; step < 3; ++step)
    for (int member = 1; member <= 4; ++member)
      out.push_back({member, member % 4 + 1, 250});
  return out;
});

} // namespace

namespace {

using namespace mpisim;
using namespace mpisim::testing_support;

// The segmented branch: NTSB on 5 ranks from root 0 with 20000 B cuts two 8192 B segments, each sent down the binary
// tree 0->1, 0->2, 1->3, 1->4; the 3616 B left over go with the library's bcast, which is NTSB itself when it is the
// configured one (as in SimGrid, where --cfg=smpi/bcast:NTSB sets colls::bcast): one whole message down each edge.
TEST(mpi_coll_bcast, NtsbSegmentsThenRemainderThroughTheConfiguredBcast)
{
  const auto call = [](int) {
    mpi::CollectiveCall c;
    c.op = mpi::Collective::Bcast;
    c.root = 0;
    c.bytes = 20000;
    return c;
  };
  const CollectiveRun run = run_collective(mpi::Collective::Bcast, "NTSB", 5, "test-counting", "", call);
  Messages expected;
  for (auto [from, to] : {std::pair{0, 1}, {0, 2}, {1, 3}, {1, 4}})
    expected = expected + Messages{{from, to, 8192}, {from, to, 8192}, {from, to, 3616}};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(run.messages, expected) << describe(run.messages);
}

} // namespace
