// alltoall "ring": P steps; step i sends to rank+i and receives from rank-i by one sendrecv (step 0: the own block,
// copied). Origin: SimGrid 3.32's alltoall ring (Star-MPI).
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoall_ring(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange::phased(c, call, exchange::Partners::Ring, exchange::Sync::None);
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "ring", "ring exchange, one partner per step",
                                   "SimGrid 3.32's alltoall ring (Star-MPI)", alltoall_ring});

} // namespace
} // namespace mpisim::mpi
