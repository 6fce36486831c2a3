// alltoallv "pair_light_barrier": P steps, one sendrecv with one partner each (step 0: the own block, copied); after
// each step but the first and the last, a 1-byte sendrecv with the next step's partner. With a power-of-two size, step
// i's partner is rank XOR i; SimGrid refuses other sizes, where this falls back to sending to rank+i and receiving from
// rank-i (the ring schedule), so every size works. Origin: SimGrid 3.32's alltoallv pair_light_barrier (Star-MPI).
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_pair_light_barrier(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange::phased(c, call, exchange::Partners::Xor, exchange::Sync::Light);
}

const RegisterAlgorithm
    kRegister({Collective::Alltoallv, "pair_light_barrier", "pairwise exchange, 1-byte sync with the next partner",
               "SimGrid 3.32's alltoallv pair_light_barrier (Star-MPI)", alltoallv_pair_light_barrier});

} // namespace
} // namespace mpisim::mpi
