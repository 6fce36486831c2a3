// alltoall "ring_one_barrier": one barrier (the library's), then P steps of one sendrecv sending to rank+i and
// receiving from rank-i (step 0: the own block, copied). Origin: SimGrid 3.32's alltoall ring_one_barrier (Star-MPI).
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoall_ring_one_barrier(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange::phased(c, call, exchange::Partners::Ring, exchange::Sync::OneBarrier);
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "ring_one_barrier", "one barrier, then ring exchange",
                                   "SimGrid 3.32's alltoall ring_one_barrier (Star-MPI)", alltoall_ring_one_barrier});

} // namespace
} // namespace mpisim::mpi
