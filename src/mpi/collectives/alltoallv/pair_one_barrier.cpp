// alltoallv "pair_one_barrier": one barrier (the library's), then P steps of one sendrecv with one partner (step 0: the
// own block, copied). With a power-of-two size, step i's partner is rank XOR i; SimGrid refuses other sizes, where this
// falls back to sending to rank+i and receiving from rank-i (the ring schedule), so every size works. Origin: SimGrid
// 3.32's alltoallv pair_one_barrier (Star-MPI).
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_pair_one_barrier(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange::phased(c, call, exchange::Partners::Xor, exchange::Sync::OneBarrier);
}

const RegisterAlgorithm kRegister({Collective::Alltoallv, "pair_one_barrier", "one barrier, then pairwise exchange",
                                   "SimGrid 3.32's alltoallv pair_one_barrier (Star-MPI)", alltoallv_pair_one_barrier});

} // namespace
} // namespace mpisim::mpi
