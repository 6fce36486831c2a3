// bcast "SMP_binomial": two-level binomial broadcast for SMP clusters. The root first hands the buffer to rank 0;
// the node leaders (local rank 0 of each block of `ranks per node` consecutive ranks) run a binomial tree from
// rank 0, then each leader runs a binomial tree inside its node. Blocking sends, whole buffer.
// Origin: SimGrid 3.32 (its bcast SMP_binomial); like SimGrid, it assumes each node's ranks are consecutive, and
// on a communicator whose nodes hold different numbers of ranks it runs bcast__mpich's choice instead.
#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

namespace mpisim::mpi {
namespace {

// Binomial tree over `count` members from member 0: member `index` (0..count-1) is mapped to a rank by `rank_of`.
template <typename RankOf>
void binomial_from_zero(const CollectiveContext& c, const CollectiveCall& call, int index, int count, RankOf rank_of)
{
  int mask = 1;
  while (mask < count) {
    if (index & mask) {
      c.rank.recv(c.comm, rank_of(index - mask), c.tag, call.bytes, call.recv_data);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (index + mask < count && rank_of(index + mask) < c.size)
      c.rank.send(c.comm, rank_of(index + mask), c.tag, call.bytes, call.recv_data);
}

void bcast_smp_binomial(const CollectiveContext& c, const CollectiveCall& call)
{
  const int per_node = bcast::uniform_ranks_per_node(c);
  if (per_node == 0) {
    bcast::run_mpich_fallback(c, call);
    return;
  }
  bcast::root_to_rank_zero(c, call);
  const int node = c.me / per_node;
  const int nodes = (c.size - 1) / per_node + 1;
  const int local = c.me % per_node;
  const int base = node * per_node;
  const int local_size = base == (c.size / per_node) * per_node ? c.size - base : per_node;
  if (local == 0)
    binomial_from_zero(c, call, node, nodes, [&](int n) { return n * per_node; });
  binomial_from_zero(c, call, local, local_size, [&](int l) { return base + l; });
}

const RegisterAlgorithm kRegister({Collective::Bcast, "SMP_binomial",
                                   "binomial tree between node leaders, then binomial tree in each node",
                                   "SimGrid 3.32 bcast-SMP-binomial", bcast_smp_binomial});

} // namespace
} // namespace mpisim::mpi
