// alltoall "mvapich2_scatter_dest": peers 4 at a time (MV2_ALLTOALL_THROTTLE_FACTOR): receives from rank+ii+i, sends
// to rank-ii-i (i < 4), then a wait for those requests. The own block travels as a message to oneself, as in
// MVAPICH2. Nothing at all when the receive count is 0. Origin: MVAPICH2 2.x MPIR_Alltoall_Scatter_dest_MV2, as in
// SimGrid 3.32's alltoall mvapich_scatter_dest.
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoall_mvapich2_scatter_dest(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.recv_bytes == 0)
    return;
  exchange::throttled(c, call, 4, false);
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "mvapich2_scatter_dest", "linear exchange, 4 peers at a time",
                                   "MVAPICH2 MPIR_Alltoall_Scatter_dest_MV2 (SimGrid 3.32)",
                                   alltoall_mvapich2_scatter_dest});

} // namespace
} // namespace mpisim::mpi
