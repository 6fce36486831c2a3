// reduce "ompi_chain": size/2 chains hang from the root; segments of 64 KiB flow up each chain (see
// ompi_segmented_reduction.hpp). Origin: Open MPI coll/tuned reduce_intra_chain, as SimGrid 3.32 reduce__ompi_chain.
// Non-commutative operations: ompi_in_order_binary (the chains do not keep the rank order).
#include "mpi/collectives/reduce/ompi_segmented_reduction.hpp"

namespace mpisim::mpi {
namespace {

void reduce_ompi_chain(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not call.commutative) { // Open MPI's tuned module picks the in-order tree for these
    c.library.run_algorithm(c, "ompi_in_order_binary", call);
    return;
  }
  const double count = coll::elements(call, call.bytes);
  const double segment = ompi::segment_count(64 * 1024, call.element_bytes, count);
  reduce_ompi::rooted(c, call, ompi::chains(c.size / 2, {.size = c.size, .rank = c.me, .root = call.root}), segment);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "ompi_chain", "segmented reduction along size/2 chains",
                                   "Open MPI coll/tuned reduce_intra_chain", reduce_ompi_chain});

} // namespace
} // namespace mpisim::mpi
