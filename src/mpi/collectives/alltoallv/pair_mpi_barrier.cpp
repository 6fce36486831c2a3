// alltoallv "pair_mpi_barrier": P steps, each a barrier (the library's) then one sendrecv with one partner (step 0: the
// own block, copied). With a power-of-two size, step i's partner is rank XOR i; SimGrid refuses other sizes, where this
// falls back to sending to rank+i and receiving from rank-i (the ring schedule), so every size works. Origin: SimGrid
// 3.32's alltoallv pair_mpi_barrier (Star-MPI).
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_pair_mpi_barrier(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange::phased(c, call, exchange::Partners::Xor, exchange::Sync::BarrierEachStep);
}

const RegisterAlgorithm kRegister({Collective::Alltoallv, "pair_mpi_barrier",
                                   "pairwise exchange, a barrier before every step",
                                   "SimGrid 3.32's alltoallv pair_mpi_barrier (Star-MPI)", alltoallv_pair_mpi_barrier});

} // namespace
} // namespace mpisim::mpi
