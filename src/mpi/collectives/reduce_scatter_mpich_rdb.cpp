// reduce_scatter "mpich_rdb": recursive doubling. At step k (mask 2^k) each rank exchanges with rank XOR mask every
// block outside the partner's and its own current subtree (subtrees are aligned groups of `mask` ranks). When the
// size is not a power of two, ranks whose partner does not exist get the result from a rank of their subtree that
// has it, by recursive halving. Origin: MPICH's recursive-doubling reduce_scatter (Thakur et al. 2005), as SimGrid's
// mpich_rdb.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

// Bytes of the blocks outside the subtree [root, root + mask).
double outside(const std::vector<double>& counts, int root, int mask)
{
  double bytes = 0;
  for (int j = 0; j < static_cast<int>(counts.size()); ++j)
    if (j < root || j >= root + mask)
      bytes += counts[j];
  return bytes;
}

void reduce_scatter_mpich_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  const int tag = collective_tag(Collective::ReduceScatter);
  const auto& counts = call.recv_counts;
  for (int mask = 1, level = 0; mask < c.size; mask <<= 1, ++level) {
    const int dst = c.me ^ mask;
    const int dst_tree_root = (dst >> level) << level;
    const int my_tree_root = (c.me >> level) << level;
    const double send_bytes = outside(counts, my_tree_root, mask);
    const double recv_bytes = outside(counts, dst_tree_root, mask);
    if (dst < c.size)
      c.rank.sendrecv(c.comm, dst, tag, send_bytes, dst, tag, recv_bytes);
    if (dst_tree_root + mask <= c.size)
      continue;
    // Non-power-of-two: the first `completed` ranks of this subtree have the data; pass it down by halving.
    const int completed = c.size - my_tree_root - mask;
    int k = 0;
    for (int j = mask; j > 1; j >>= 1)
      ++k;
    for (int half = mask >> 1; half > 0; half >>= 1, --k) {
      const int peer = c.me ^ half;
      const int tree_root = (c.me >> k) << k;
      if (peer > c.me && c.me < tree_root + completed && peer >= tree_root + completed)
        c.rank.send(c.comm, peer, tag, recv_bytes);
      else if (peer < c.me && peer < tree_root + completed && c.me >= tree_root + completed)
        c.rank.recv(c.comm, peer, tag, recv_bytes);
    }
  }
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "mpich_rdb", "recursive doubling",
                                   "MPICH reduce_scatter, recursive doubling (Thakur et al. 2005)",
                                   reduce_scatter_mpich_rdb});

} // namespace
} // namespace mpisim::mpi
