// alltoallv "ompi_basic_linear": the own block is copied, then persistent receives from every other rank in rank
// order and sends to every other rank in rank order are started together and waited for: the messages and order of
// "linear_nbc", which runs it. Origin: Open MPI coll/basic alltoallv_intra_basic_linear (SimGrid 3.32's
// alltoallv ompi_basic_linear).
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_ompi_basic_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  c.library.run_algorithm(c, "linear_nbc", call);
}

const RegisterAlgorithm kRegister({Collective::Alltoallv, "ompi_basic_linear", "all receives, all sends, then wait",
                                   "Open MPI coll/basic linear alltoallv", alltoallv_ompi_basic_linear});

} // namespace
} // namespace mpisim::mpi
