// Scatter algorithms of Open MPI and MVAPICH2 (as SimGrid 3.32 runs them): their messages on 5 ranks (root 2,
// B = 1000 B, one rank per host), derived by hand below.
#include "support/CollectiveMessages.hpp"

#include <gtest/gtest.h>

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

// Linear scatters (blocking or non-blocking sends): the root sends every other rank its block.
const ExpectMessages kBasicLinear("scatter/ompi_basic_linear",
                                  [] { return from_root(5, kRoot, [](int) { return B; }); });
const ExpectMessages kLinearNb("scatter/ompi_linear_nb", [] { return from_root(5, kRoot, [](int) { return B; }); });

// In-order binomial tree from root 2 (relative ranks v0..v4 = ranks 2, 3, 4, 0, 1; v0's children v1, v2, v4, v2's
// child v3): the root sends each child its subtree's blocks, smallest first: v1 one block (2->3), v2 two (2->4, 2B),
// v4 one (2->1); v2 forwards v3's block (4->0).
Messages binomial_from_2() { return {{2, 3, B}, {2, 4, 2 * B}, {2, 1, B}, {4, 0, B}}; }
const ExpectMessages kBinomial("scatter/ompi_binomial", binomial_from_2);

// Two-level scatters with one rank per host: the root is its node's leader, so nothing goes to a leader first; every
// rank is a leader, so the leaders' scatter is the whole scatter (linear for direct, binomial for binomial), and the
// nodes' scatters have one rank.
const ExpectMessages kTwoLevelDirect("scatter/mvapich2_two_level_direct",
                                     [] { return from_root(5, kRoot, [](int) { return B; }); });
const ExpectMessages kTwoLevelBinomial("scatter/mvapich2_two_level_binomial", binomial_from_2);

} // namespace
