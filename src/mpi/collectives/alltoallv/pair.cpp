// alltoallv "pair": P steps, one sendrecv with one partner each (step 0: the own block, copied). With a power-of-two
// size, step i's partner is rank XOR i; SimGrid refuses other sizes, where this falls back to sending to rank+i and
// receiving from rank-i (the ring schedule), so every size works. Origin: SimGrid 3.32's alltoallv pair (Star-MPI).
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_pair(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange::phased(c, call, exchange::Partners::Xor, exchange::Sync::None);
}

const RegisterAlgorithm kRegister({Collective::Alltoallv, "pair", "pairwise exchange, one partner per step",
                                   "SimGrid 3.32's alltoallv pair (Star-MPI)", alltoallv_pair});

} // namespace
} // namespace mpisim::mpi
