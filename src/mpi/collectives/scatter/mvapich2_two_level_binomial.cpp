// scatter "mvapich2_two_level_binomial": MVAPICH2's two-level scatter with a binomial scatter among the node leaders
// (see mvapich2_two_level_steps.hpp for the steps and SimGrid's quirks). Origin: MVAPICH2
// MPIR_Scatter_MV2_two_level_Binomial, as SimGrid 3.32 runs it (scatter__mvapich2_two_level_binomial).
#include "mpi/collectives/scatter/mvapich2_two_level_steps.hpp"

namespace mpisim::mpi {
namespace {

void scatter_mvapich2_two_level_binomial(const CollectiveContext& c, const CollectiveCall& call)
{
  mvapich2::scatter_two_level(c, call, "ompi_binomial");
}

const RegisterAlgorithm kRegister({Collective::Scatter, "mvapich2_two_level_binomial",
                                   "binomial scatter among node leaders, then in each node",
                                   "MVAPICH2 two-level binomial scatter", scatter_mvapich2_two_level_binomial});

} // namespace
} // namespace mpisim::mpi
