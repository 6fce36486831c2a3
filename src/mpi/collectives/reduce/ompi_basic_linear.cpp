// reduce "ompi_basic_linear": every rank sends its buffer to the root with a blocking send; the root receives them
// from rank P-1 down to rank 0 and combines them as they come. Origin: Open MPI's coll/basic linear reduce, as
// SimGrid 3.32's reduce__ompi_basic_linear (same messages as flat_tree).
#include "mpi/collectives/reduce/flat_reduction.hpp"

namespace mpisim::mpi {
namespace {

void reduce_ompi_basic_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  reduce_flat::to_root(c, call);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "ompi_basic_linear", "the root receives from each rank in turn",
                                   "Open MPI coll/basic linear reduce", reduce_ompi_basic_linear});

} // namespace
} // namespace mpisim::mpi
