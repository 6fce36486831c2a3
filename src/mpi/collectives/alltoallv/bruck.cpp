// alltoallv "bruck": despite its name, not Bruck's algorithm: the own block is copied, then peers are taken 4 at a
// time (Tony Ladd's throttling, MPICH's MPIR_PARAM_ALLTOALL_THROTTLE): receives from rank+ii+i, sends to rank-ii-i
// (i < 4, skipping oneself), then a wait for those requests. Origin: SimGrid 3.32's alltoallv bruck.
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_bruck(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange::throttled(c, call, 4, true);
}

const RegisterAlgorithm kRegister({Collective::Alltoallv, "bruck", "linear exchange, 4 peers at a time",
                                   "SimGrid 3.32's alltoallv bruck (MPICH throttled alltoall)", alltoallv_bruck});

} // namespace
} // namespace mpisim::mpi
