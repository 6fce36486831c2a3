// reduce "ompi_binomial": in-order binomial tree rooted at the root, unsegmented or in 1 KiB segments by Open MPI's
// rule (see ompi_segmented_reduction.hpp). Origin: Open MPI coll/tuned reduce_intra_binomial, as SimGrid 3.32
// reduce__ompi_binomial. Non-commutative operations: ompi_in_order_binary.
#include "mpi/collectives/reduce/ompi_segmented_reduction.hpp"

namespace mpisim::mpi {
namespace {

void reduce_ompi_binomial(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not call.commutative) { // Open MPI's tuned module picks the in-order tree for these
    c.library.run_algorithm(c, "ompi_in_order_binary", call);
    return;
  }
  const double count = coll::elements(call, call.bytes);
  const double bytes = call.bytes;
  // Open MPI's rule: no segmentation for small messages, 1 KiB segments on large communicators. In between its
  // segment size stays 0 (the whole buffer), as in SimGrid.
  double segment_bytes = 0;
  if (not((c.size < 8 && bytes < 20480) || bytes < 2048 || count <= 1) && c.size > 0.6016 / 1024.0 * bytes + 1.3496)
    segment_bytes = 1024;
  const double segment = ompi::segment_count(segment_bytes, call.element_bytes, count);
  const ompi::Viewpoint at{.size = c.size, .rank = c.me, .root = call.root};
  reduce_ompi::rooted(c, call, ompi::in_order_binomial_tree(at), segment);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "ompi_binomial", "segmented reduction on a binomial tree",
                                   "Open MPI coll/tuned reduce_intra_binomial", reduce_ompi_binomial});

} // namespace
} // namespace mpisim::mpi
