// bcast "SMP_linear": two-level pipelined chain for SMP clusters. The root first hands the buffer to rank 0; node
// leaders (local rank 0 of each block of `ranks per node` consecutive ranks) form a chain 0 -> n -> 2n ..., and
// inside each node the leader starts a chain through its ranks. A leader sends to the next leader first, then to its
// next local rank, with blocking sends. Up to one segment (8192 B) the buffer travels whole; above, ranks post the
// receives of every whole segment and forward each as it arrives, and the remainder (count % segment elements) is
// broadcast with the library's bcast. On one node it runs "binomial_tree" (SimGrid's bcast__default).
// Origin: SimGrid 3.32 (its bcast SMP_linear); like SimGrid, on a communicator whose nodes hold different numbers
// of ranks it runs bcast__mpich's choice instead.
//
// With one rank per node SimGrid's version sends each message twice to the next rank (its next leader is also its
// next local rank) and the last rank sends back to rank 0: those extra messages are never received, and SimGrid
// hangs once they are large enough to need a rendezvous. mpisim runs "binomial_tree" there instead.
#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

#include <vector>

namespace mpisim::mpi {
namespace {

constexpr long kSegmentBytes = 8192;

void bcast_smp_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  const int per_node = bcast::uniform_ranks_per_node(c);
  if (per_node == 0) {
    bcast::run_mpich_fallback(c, call);
    return;
  }
  if (c.size <= per_node || per_node == 1) {
    c.library.run_algorithm(c, "binomial_tree", call);
    return;
  }
  const int next_leader = (c.me + per_node) % c.size;
  const int next_local = (c.me + 1) % c.size;
  const int last_leader = ((c.size - 1) / per_node) * per_node;
  int parent = -1;
  std::vector<int> children;
  if (c.me % per_node == 0) {
    if (c.me != 0)
      parent = (c.me - per_node + c.size) % c.size;
    if (c.me != last_leader)
      children.push_back(next_leader);
    children.push_back(next_local);
  } else {
    parent = (c.me + c.size - 1) % c.size;
    if ((c.me + 1) % per_node != 0 && c.me != c.size - 1)
      children.push_back(next_local);
  }

  bcast::segmented_tree_from_rank_zero(c, call, parent, children, kSegmentBytes, bcast::Forwarding::Blocking);
}

const RegisterAlgorithm kRegister({Collective::Bcast, "SMP_linear",
                                   "chain between node leaders and in each node, 8 KiB segments",
                                   "SimGrid 3.32 bcast-SMP-linear", bcast_smp_linear});

} // namespace
} // namespace mpisim::mpi
