// alltoallv "ring_mpi_barrier": P steps, each a barrier (the library's) then one sendrecv sending to rank+i and
// receiving from rank-i (step 0: the own block, copied). Origin: SimGrid 3.32's alltoallv ring_mpi_barrier (Star-
// MPI).
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_ring_mpi_barrier(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange::phased(c, call, exchange::Partners::Ring, exchange::Sync::BarrierEachStep);
}

const RegisterAlgorithm kRegister({Collective::Alltoallv, "ring_mpi_barrier",
                                   "ring exchange, a barrier before every step",
                                   "SimGrid 3.32's alltoallv ring_mpi_barrier (Star-MPI)", alltoallv_ring_mpi_barrier});

} // namespace
} // namespace mpisim::mpi
