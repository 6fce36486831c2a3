// alltoall "linear_nbc": SimGrid 3.32's non-blocking alltoall, which posts the same messages in the same order as
// Open MPI's basic linear algorithm (receives from rank+1 upwards, then sends from rank-1 downwards, then wait).
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void alltoall_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  c.library.run_algorithm(c, "basic_linear", call);
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "linear_nbc", "all receives, then all sends, then wait",
                                   "SimGrid 3.32 ialltoall", alltoall_linear});

} // namespace
} // namespace mpisim::mpi
