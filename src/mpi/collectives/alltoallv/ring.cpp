// alltoallv "ring": P steps of one sendrecv each (step 0: own block, copied). Unlike alltoall's ring, SimGrid's
// alltoallv ring pairs ranks by XOR when the size is a power of two (step i: partner rank XOR i), and sends to rank+i,
// receiving from rank-i, otherwise. Origin: SimGrid 3.32's alltoallv ring (Star-MPI).
#include "mpi/collectives/building_blocks/alltoall_exchange.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_ring(const CollectiveContext& c, const CollectiveCall& call)
{
  const auto partners = exchange::power_of_two(c.size) ? exchange::Partners::Xor : exchange::Partners::Ring;
  exchange::phased(c, call, partners, exchange::Sync::None);
}

const RegisterAlgorithm kRegister({Collective::Alltoallv, "ring", "XOR pairs (power-of-two sizes) or ring exchange",
                                   "SimGrid 3.32's alltoallv ring (Star-MPI)", alltoallv_ring});

} // namespace
} // namespace mpisim::mpi
