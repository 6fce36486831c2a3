// reduce "flat_tree": every rank sends its buffer to the root with a blocking send; the root receives them in
// decreasing rank order and combines them as they come. Origin: SimGrid 3.32's reduce flat_tree (from the
// STAR-MPI collection).
#include "mpi/collectives/reduce/flat_reduction.hpp"

namespace mpisim::mpi {
namespace {

void reduce_flat_tree(const CollectiveContext& c, const CollectiveCall& call)
{
  reduce_flat::to_root(c, call);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "flat_tree", "the root receives from each rank in turn",
                                   "SimGrid 3.32 (STAR-MPI)", reduce_flat_tree});

} // namespace
} // namespace mpisim::mpi
