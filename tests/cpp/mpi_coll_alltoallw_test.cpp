// Expected messages of the alltoallw algorithm on 5 ranks (rank i sends 100 i + j + 1 B to rank j, see call_for:
// the front end has packed each peer's block of its own datatype; mpi_collectives_test.cpp checks that the algorithm
// sends exactly these). linear_nbc: every other rank's block once, the own block copied.
#include "support/CollectiveMessages.hpp"

using namespace mpisim;
using namespace mpisim::testing_support;

namespace {

const ExpectMessages kLinear("alltoallw/linear_nbc",
                             [] { return all_pairs(5, [](int i, int j) { return 100.0 * i + j + 1; }); });

} // namespace
