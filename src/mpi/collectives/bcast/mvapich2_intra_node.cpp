// bcast "mvapich2_intra_node": MVAPICH2's broadcast (MPIR_Bcast_intra_MV2). On up to 64 ranks, messages of more
// than 16384 B and less than 524288 B go two-level: the inter-node phase (see mvapich2_inter_node), then each node
// leader broadcasts to its node with MPICH's choice (up to 131072 B) or the 4-nomial tree. Other messages go flat:
// binomial_tree up to 16384 B, scatter_LR_allgather above. Beyond 64 ranks always two-level. Nothing for an empty
// buffer. Origin: MVAPICH2's broadcast, as in SimGrid 3.32 (its bcast mvapich_smp).
//
// SimGrid's intra-node MPICH phase is rooted at the call's root taken as a rank of the node's communicator (a bug:
// that rank may not exist or may not hold the data); here it is rooted at the leader, which holds the data.
// SimGrid 3.32's replay crashes on this algorithm (its SMP communicator setup).
#include "mpi/collectives/bcast/mvapich2_steps.hpp"

namespace mpisim::mpi {
namespace {

void bcast_mvapich2_intra_node(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.bytes == 0)
    return;
  bool two_level = true;
  if (c.size <= 64)
    two_level = call.bytes > 16384 && call.bytes < 512 * 1024;
  if (two_level) {
    bcast::mvapich2_leaders_phase(c, call);
    bcast::mvapich2_node_phase(c, call, call.bytes > 131072);
  } else if (call.bytes <= 16384) {
    c.library.run_algorithm(c, "binomial_tree", call);
  } else {
    c.library.run_algorithm(c, "scatter_LR_allgather", call);
  }
}

const RegisterAlgorithm kRegister({Collective::Bcast, "mvapich2_intra_node",
                                   "MVAPICH2 bcast: two-level for medium messages, binomial or scatter-ring flat",
                                   "MVAPICH2 MPIR_Bcast_intra_MV2, SimGrid 3.32", bcast_mvapich2_intra_node});

} // namespace
} // namespace mpisim::mpi
