// barrier "ompi_bruck": at distances d = 1, 2, 4, ... < P, each rank sends an empty message to rank + d and receives
// one from rank - d (one sendrecv per step, ceil(log2 P) steps). Origin: Open MPI coll/tuned barrier_intra_bruck
// (the dissemination barrier of Hensgen, Finkel and Manber 1988), as SimGrid 3.32 runs it (barrier__ompi_bruck; also
// SimGrid's barrier__mpich).
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void barrier_ompi_bruck(const CollectiveContext& c, const CollectiveCall&)
{
  for (int distance = 1; distance < c.size; distance <<= 1)
    c.rank.sendrecv(c.comm, (c.me + distance) % c.size, c.tag, 0, (c.me - distance + c.size) % c.size, c.tag, 0);
}

const RegisterAlgorithm kRegister({Collective::Barrier, "ompi_bruck", "dissemination: exchanges at distances 2^k",
                                   "Open MPI coll/tuned bruck barrier (Hensgen et al. 1988)", barrier_ompi_bruck});

} // namespace
} // namespace mpisim::mpi
