// allreduce "mvapich2_rs": MPICH's allreduce as MVAPICH2 ships it: after the fold of a non-power-of-two size onto
// pof2 ranks, recursive doubling when n < pof2, else Rabenseifner's reduce-scatter by recursive halving and allgather
// by recursive doubling; nothing is sent for n = 0. Its messages are exactly those of rdb and rab_rdb, which run here.
// Origin: MVAPICH2 (MPIR_Allreduce_pt2pt_rs_MV2), as SimGrid 3.32's allreduce__mvapich2_rs.
#include "mpi/collectives/allreduce/fold_and_combine.hpp"

namespace mpisim::mpi {
namespace {

void allreduce_mvapich2_rs(const CollectiveContext& c, const CollectiveCall& call)
{
  const long n = allreduce::element_count(call);
  if (n == 0)
    return;
  c.library.run_algorithm(c, n < allreduce::lower_power_of_two(c.size) ? "rdb" : "rab_rdb", call);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "mvapich2_rs",
                                   "recursive doubling for short vectors, else reduce-scatter and allgather",
                                   "MVAPICH2, SimGrid allreduce__mvapich2_rs", allreduce_mvapich2_rs});

} // namespace
} // namespace mpisim::mpi
