// bcast "mvapich2_knomial_intra_node": MVAPICH2's k-nomial broadcast (factor 4) over the whole communicator: relative
// rank r receives from r with its lowest non-zero base-4 digit cleared, then, from the highest digit down, sends to
// its up to 3 children of each level at once (non-blocking) and waits for them.
// Origin: MVAPICH2 (MPIR_Knomial_Bcast_intra_node_MV2), as in SimGrid 3.32 (its bcast mvapich_smp), factor 4 from
// the MVAPICH2 Stampede tables. SimGrid 3.32's replay crashes on it (its SMP communicator setup).
#include "mpi/collectives/bcast/mvapich2_steps.hpp"

namespace mpisim::mpi {
namespace {

const RegisterAlgorithm kRegister({Collective::Bcast, "mvapich2_knomial_intra_node", "4-nomial tree, non-blocking",
                                   "MVAPICH2 knomial intra-node bcast, SimGrid 3.32", bcast::mvapich2_knomial});

} // namespace
} // namespace mpisim::mpi
