// bcast "SMP_binary": two-level pipelined binary tree for SMP clusters. The root first hands the buffer to rank 0.
// Node leaders (local rank 0 of each block of `ranks per node` consecutive ranks) form a binary tree over nodes
// (node n feeds nodes 2n+1 and 2n+2); inside a node, local rank l feeds local ranks 2l+1 and 2l+2. Each rank sends
// to its inter-node children first, then its intra-node ones, with blocking sends. Up to one segment (8192 B) the
// buffer travels whole; above, ranks post the receives of every whole segment and forward each as it arrives, and
// the remainder (count % segment elements) is broadcast with the library's bcast.
// Origin: SimGrid 3.32 (its bcast SMP_binary); like SimGrid, on a communicator whose nodes hold different numbers
// of ranks it runs bcast__mpich's choice instead.
#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

#include <vector>

namespace mpisim::mpi {
namespace {

constexpr long kSegmentBytes = 8192;

void bcast_smp_binary(const CollectiveContext& c, const CollectiveCall& call)
{
  const int per_node = bcast::uniform_ranks_per_node(c);
  if (per_node == 0) {
    bcast::run_mpich_fallback(c, call);
    return;
  }
  const int node = c.me / per_node;
  const int local = c.me % per_node;
  const int base = node * per_node;
  const int local_size = base == (c.size / per_node) * per_node ? c.size - base : per_node;
  int parent = -1;
  std::vector<int> children;
  if (local == 0) {
    if (c.me != 0)
      parent = ((node - 1) / 2) * per_node;
    for (int child : {(2 * node + 1) * per_node, (2 * node + 2) * per_node})
      if (child < c.size)
        children.push_back(child);
  } else {
    parent = base + (local - 1) / 2;
  }
  for (int child_local : {2 * local + 1, 2 * local + 2})
    if (child_local < local_size)
      children.push_back(base + child_local);

  bcast::segmented_tree_from_rank_zero(c, call, parent, children, kSegmentBytes, bcast::Forwarding::Blocking);
}

const RegisterAlgorithm kRegister({Collective::Bcast, "SMP_binary",
                                   "binary tree between node leaders and in each node, 8 KiB segments",
                                   "SimGrid 3.32 bcast-SMP-binary", bcast_smp_binary});

} // namespace
} // namespace mpisim::mpi
