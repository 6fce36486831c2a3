// reduce "ompi_pipeline": one chain root <- root+1 <- ... <- root-1, segments of 1, 32 or 64 KiB by Open MPI's
// fitted rule on the communicator and message sizes (see ompi_segmented_reduction.hpp). Origin: Open MPI coll/tuned
// reduce_intra_pipeline, as SimGrid 3.32 reduce__ompi_pipeline. Non-commutative operations: ompi_in_order_binary.
#include "mpi/collectives/reduce/ompi_segmented_reduction.hpp"

namespace mpisim::mpi {
namespace {

void reduce_ompi_pipeline(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not call.commutative) { // Open MPI's tuned module picks the in-order tree for these
    c.library.run_algorithm(c, "ompi_in_order_binary", call);
    return;
  }
  const double count = coll::elements(call, call.bytes);
  const double bytes = call.bytes;
  // Open MPI's fitted rule: the segment grows with the message and shrinks with the communicator.
  double segment_bytes = 64 * 1024;
  if (c.size > 0.0410 / 1024.0 * bytes + 9.7128)
    segment_bytes = 1024;
  else if (c.size > 0.0033 / 1024.0 * bytes + 1.6761)
    segment_bytes = 32 * 1024;
  const double segment = ompi::segment_count(segment_bytes, call.element_bytes, count);
  reduce_ompi::rooted(c, call, ompi::pipeline({.size = c.size, .rank = c.me, .root = call.root}), segment);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "ompi_pipeline", "segmented reduction along one chain",
                                   "Open MPI coll/tuned reduce_intra_pipeline", reduce_ompi_pipeline});

} // namespace
} // namespace mpisim::mpi
