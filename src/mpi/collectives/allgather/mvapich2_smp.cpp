// allgather "mvapich2_smp": two levels. (1) Each node gathers its ranks' blocks to its leader (its lowest rank) with
// the library's gather on the node's communicator; (2) the leaders allgather their nodes' groups of blocks with MPICH's
// choice (recursive doubling "rdb" for a power-of-two number of leaders and less than 512 KiB in all, "bruck" up to
// 80 KiB, else "ring"); (3) each leader broadcasts the whole result in its node with the library's bcast. Nothing
// moves when blocks are empty. Needs nodes with as many ranks each, numbered consecutively (SimGrid's version
// refuses other placements); others run MPICH's choice over the whole communicator. Origin: MVAPICH2's SMP-aware
// allgather (SimGrid's "mvapich2_smp").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

// MPICH's allgather choice (SimGrid's allgather__mpich), on `total` bytes gathered over `size` ranks.
const char* mpich_choice(int size, double total)
{
  if (allgather::is_power_of_two(size) && total < 524288)
    return "rdb";
  return total <= 81920 ? "bruck" : "ring";
}

bool blocked_and_uniform(const NodeLayout& layout)
{
  if (not layout.uniform)
    return false;
  for (const auto& members : layout.members)
    if (members.back() - members.front() + 1 != static_cast<int>(members.size()))
      return false;
  return true;
}

void allgather_mvapich2_smp(const CollectiveContext& c, const CollectiveCall& call)
{
  const NodeLayout& layout = coll::node_layout(c);
  if (not blocked_and_uniform(layout)) {
    c.library.run_algorithm(c, mpich_choice(c.size, call.recv_bytes * c.size), call);
    return;
  }
  if (call.recv_bytes == 0)
    return;
  const int node = layout.node_of[c.me];
  const CollectiveContext intra = allgather::on(c, layout.intra(node));
  const bool leader = intra.me == 0;
  const int per_node = intra.size;

  CollectiveCall gather = call;
  gather.op = Collective::Gather;
  gather.root = 0;
  gather.recv_data = leader ? allgather::slot(call, c.me) : nullptr;
  c.library.run_part(intra, gather);

  const int nodes = static_cast<int>(layout.members.size());
  if (leader && nodes > 1) {
    const CollectiveContext leaders = allgather::on(c, layout.leaders());
    CollectiveCall groups = call;
    groups.bytes = groups.recv_bytes = per_node * call.recv_bytes;
    groups.send_data = allgather::slot(call, c.me);
    c.library.run_algorithm(leaders, mpich_choice(nodes, groups.recv_bytes * nodes), groups);
  }

  CollectiveCall bcast = call;
  bcast.op = Collective::Bcast;
  bcast.root = 0;
  bcast.bytes = call.recv_bytes * c.size;
  bcast.send_data = nullptr;
  c.library.run_part(intra, bcast);
}

const RegisterAlgorithm kRegister({Collective::Allgather, "mvapich2_smp",
                                   "gather in nodes, MPICH allgather among leaders, bcast in nodes",
                                   "MVAPICH2 SMP-aware allgather", allgather_mvapich2_smp});

} // namespace
} // namespace mpisim::mpi
