// alltoallv "ring_light_barrier": P steps; step i sends to rank+i and receives from rank-i by one sendrecv (step 0: the
// own block, copied); after each step but the first and the last, a 1-byte sendrecv sending to the next step's source
// (rank-i-1) and receiving from its destination (rank+i+1). Origin: SimGrid 3.32's alltoallv ring_light_barrier
// (Star-MPI).
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_ring_light_barrier(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange::phased(c, call, exchange::Partners::Ring, exchange::Sync::Light);
}

const RegisterAlgorithm
    kRegister({Collective::Alltoallv, "ring_light_barrier", "ring exchange, 1-byte sync with the next partners",
               "SimGrid 3.32's alltoallv ring_light_barrier (Star-MPI)", alltoallv_ring_light_barrier});

} // namespace
} // namespace mpisim::mpi
