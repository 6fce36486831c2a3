// reduce_scatter "mpich_pair": P-1 steps; at step i each rank sends to rank+i the block that rank keeps and receives
// its own block from rank-i. Origin: MPICH's pairwise reduce_scatter (long messages, commutative operations), as
// SimGrid's mpich_pair. Order of combination (docs/collectives.md, "Reductions bit for bit"): a commutative operation
// folds each contribution in as it arrives, on the left (acc = x_src op acc, from the rank's own block, sources
// rank-1, rank-2, ... wrapping around), as SimGrid; a non-commutative one folds the lower ranks' blocks on the left
// (rank-1 down to 0), then the higher ranks' on the right in increasing rank order: MPI's order, and SimGrid's
// grouping on the last two ranks (SimGrid takes the higher ranks from P-1 down, not MPI's order above one of them).
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void reduce_scatter_mpich_pair(const CollectiveContext& c, const CollectiveCall& call)
{
  const std::vector<double> displs = coll::displacements(call.recv_counts, {});
  const double mine = call.recv_counts[c.me];
  coll::Temp contributions(call, c.size * mine); // slot p: rank p's part of my block
  coll::copy(contributions.at(c.me * mine), coll::at(call.send_data, displs[c.me]), mine);
  for (int step = 1; step < c.size; ++step) {
    const int dst = (c.me + step) % c.size;
    const int src = (c.me - step + c.size) % c.size;
    c.rank.sendrecv(c.comm, dst, c.tag, call.recv_counts[dst], src, c.tag, mine, coll::at(call.send_data, displs[dst]),
                    contributions.at(src * mine));
  }
  if (not call.has_data())
    return;
  if (call.commutative) {
    coll::copy(call.recv_data, contributions.at(c.me * mine), mine);
    for (int step = 1; step < c.size; ++step)
      coll::reduce(call, contributions.at(((c.me - step + c.size) % c.size) * mine), call.recv_data, mine);
    return;
  }
  coll::copy(call.recv_data, contributions.at(c.me * mine), mine);
  for (int p = c.me - 1; p >= 0; --p)
    coll::reduce(call, contributions.at(p * mine), call.recv_data, mine);
  for (int p = c.me + 1; p < c.size; ++p)
    coll::reduce_left(call, call.recv_data, contributions.at(p * mine), mine);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "mpich_pair", "pairwise exchange of blocks",
                                   "MPICH reduce_scatter, pairwise (Thakur et al. 2005)", reduce_scatter_mpich_pair});

} // namespace
} // namespace mpisim::mpi
