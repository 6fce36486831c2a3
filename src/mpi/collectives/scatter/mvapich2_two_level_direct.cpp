// scatter "mvapich2_two_level_direct": MVAPICH2's two-level scatter with a linear scatter among the node leaders
// (see mvapich2_two_level_steps.hpp for the steps and SimGrid's quirks). Origin: MVAPICH2
// MPIR_Scatter_MV2_two_level_Direct, as SimGrid 3.32 runs it (scatter__mvapich2_two_level_direct).
#include "mpi/collectives/scatter/mvapich2_two_level_steps.hpp"

namespace mpisim::mpi {
namespace {

void scatter_mvapich2_two_level_direct(const CollectiveContext& c, const CollectiveCall& call)
{
  mvapich2::scatter_two_level(c, call, "ompi_basic_linear");
}

const RegisterAlgorithm kRegister({Collective::Scatter, "mvapich2_two_level_direct",
                                   "linear scatter among node leaders, then binomial scatter in each node",
                                   "MVAPICH2 two-level direct scatter", scatter_mvapich2_two_level_direct});

} // namespace
} // namespace mpisim::mpi
