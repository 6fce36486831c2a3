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
