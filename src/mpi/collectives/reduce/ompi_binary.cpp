// reduce "ompi_binary": binary tree rooted at the root (level order of the shifted ranks), 32 KiB segments (see
// ompi_segmented_reduction.hpp). Origin: Open MPI coll/tuned reduce_intra_binary, as SimGrid 3.32 reduce__ompi_binary.
// Non-commutative operations: ompi_in_order_binary.
#include "mpi/collectives/reduce/ompi_segmented_reduction.hpp"

namespace mpisim::mpi {
namespace {

void reduce_ompi_binary(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not call.commutative) { // Open MPI's tuned module picks the in-order tree for these
    c.library.run_algorithm(c, "ompi_in_order_binary", call);
    return;
  }
  const double count = coll::elements(call, call.bytes);
  const double segment = ompi::segment_count(32 * 1024, call.element_bytes, count);
  reduce_ompi::rooted(c, call, ompi::kary_tree(2, {.size = c.size, .rank = c.me, .root = call.root}), segment);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "ompi_binary", "segmented reduction on a binary tree",
                                   "Open MPI coll/tuned reduce_intra_binary", reduce_ompi_binary});

} // namespace
} // namespace mpisim::mpi
