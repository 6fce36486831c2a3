// bcast "mvapich2_inter_node": MVAPICH2's inter-node phase. A root that is not the leader (lowest rank) of its node
// first sends the buffer to that leader; the node leaders then broadcast among themselves with MPICH's choice
// (binomial_tree, scatter_rdb_allgather or scatter_LR_allgather by size, as SimGrid's bcast__mpich on its leaders'
// communicator). Origin: MVAPICH2 (MPIR_Bcast_inter_node_helper_MV2), as in SimGrid 3.32 (its bcast mvapich_smp).
//
// SimGrid stops there, so ranks that are not leaders never get the data: here each leader then broadcasts to its
// node with MPICH's choice (what MVAPICH2's intra-node phase does), so that the data is right. SimGrid 3.32's replay
// crashes on this algorithm (its SMP communicator setup), so there is no timing to keep.
#include "mpi/collectives/bcast/mvapich2_steps.hpp"

namespace mpisim::mpi {
namespace {

void bcast_mvapich2_inter_node(const CollectiveContext& c, const CollectiveCall& call)
{
  bcast::mvapich2_leaders_phase(c, call);
  bcast::mvapich2_node_phase(c, call, false);
}

const RegisterAlgorithm kRegister({Collective::Bcast, "mvapich2_inter_node",
                                   "root to its node leader, bcast among leaders, then in each node",
                                   "MVAPICH2 inter-node bcast helper, SimGrid 3.32", bcast_mvapich2_inter_node});

} // namespace
} // namespace mpisim::mpi
