// Gather algorithms of Open MPI and MVAPICH2 (as SimGrid 3.32 runs them): their messages on 5 ranks (root 2,
// B = 1000 B, one rank per host), derived by hand below, and a two-level gather on several ranks per host.
#include "support/CollectiveMessages.hpp"

#include <gtest/gtest.h>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

// Linear gather: every other rank sends its block to the root.
const ExpectMessages kBasicLinear("gather/ompi_basic_linear", [] { return to_root(5, kRoot, [](int) { return B; }); });

// In-order binomial tree from root 2: relative ranks v = (rank - 2) mod 5, so v0..v4 are ranks 2, 3, 4, 0, 1. The
// children of v are v+1, v+2, v+4 below v's lowest set bit: v0 has v1, v2, v4; v2 has v3; v1, v3, v4 are leaves. A
// child's subtree holds min(child - v, 5 - child) blocks: v1 -> v0 one block (3->2), v3 -> v2 one (0->4), v2 -> v0
// two (its own and v3's: 4->2, 2B), v4 -> v0 one (1->2).
const ExpectMessages kBinomial("gather/ompi_binomial",
                               [] { return Messages{{3, 2, B}, {0, 4, B}, {4, 2, 2 * B}, {1, 2, B}}; });

// Linear synchronised gather: for each other rank i the root sends an empty go-ahead, then i sends its first segment
// and the rest. B = 1000 B <= 90 KiB, so the first segment is 1024 B, which holds the whole block: the rest is empty
// (and still sent).
const ExpectMessages kLinearSync("gather/ompi_linear_sync", [] {
  Messages out;
  for (int i : {0, 1, 3, 4})
    out = out + Messages{{kRoot, i, 0}, {i, kRoot, B}, {i, kRoot, 0}};
  return out;
});

// Two-level gather with one rank per host: every node gathers nothing (one rank), the leaders (every rank) gather at
// the root's leader (the root itself) linearly: every other rank -> root, B.
const ExpectMessages kTwoLevel("gather/mvapich2_two_level", [] { return to_root(5, kRoot, [](int) { return B; }); });

} // namespace
