// reduce_scatter "mpich_pair": P-1 steps; at step i each rank sends to rank+i the block that rank keeps and receives
// its own block from rank-i, combining as it goes. Origin: MPICH's pairwise reduce_scatter (long messages,
// commutative operations), as SimGrid's mpich_pair.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void reduce_scatter_mpich_pair(const CollectiveContext& c, const CollectiveCall& call)
{
  const int tag = collective_tag(Collective::ReduceScatter);
  for (int step = 1; step < c.size; ++step) {
    const int dst = (c.me + step) % c.size;
    const int src = (c.me - step + c.size) % c.size;
    c.rank.sendrecv(c.comm, dst, tag, call.recv_counts[dst], src, tag, call.recv_counts[c.me]);
  }
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "mpich_pair", "pairwise exchange of blocks",
                                   "MPICH reduce_scatter, pairwise (Thakur et al. 2005)", reduce_scatter_mpich_pair});

} // namespace
} // namespace mpisim::mpi
