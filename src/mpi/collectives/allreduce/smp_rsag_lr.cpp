// allreduce "smp_rsag_lr": binomial reduce inside each node onto its first rank, ring reduce-scatter then ring
// allgather between those leaders, binomial broadcast inside each node (see smp_two_level.hpp,
// smp_leaders_ring.hpp); the last block of the leaders' ring carries the n mod nodes trailing elements.
// Origin: Patarasuk's SMP allreduce, as SimGrid 3.32's allreduce__smp_rsag_lr.
// Fallback: the ring combines out of rank order: smp_rdb for non-commutative operations.
#include "mpi/collectives/allreduce/smp_leaders_ring.hpp"

namespace mpisim::mpi {
namespace {

void allreduce_smp_rsag_lr(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not call.commutative) {
    c.library.run_algorithm(c, "smp_rdb", call);
    return;
  }
  allreduce::run_with_leaders_ring(c, call, true);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "smp_rsag_lr",
                                   "binomial in nodes, ring reduce-scatter and allgather between node leaders",
                                   "Patarasuk, SimGrid allreduce__smp_rsag_lr", allreduce_smp_rsag_lr});

} // namespace
} // namespace mpisim::mpi
