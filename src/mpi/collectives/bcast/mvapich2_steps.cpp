// The pieces of MVAPICH2's broadcast (see mvapich2_steps.hpp). Origin: MVAPICH2's broadcast, as in SimGrid
// 3.32 (its bcast mvapich_smp; k-nomial factor 4 from the MVAPICH2 Stampede tables).
#include "mpi/collectives/bcast/mvapich2_steps.hpp"

#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

#include <vector>

namespace mpisim::mpi::bcast {

namespace {

constexpr int kKnomialFactor = 4;

} // namespace

void mvapich2_leaders_phase(const CollectiveContext& c, const CollectiveCall& call)
{
  const NodeLayout& layout = coll::node_layout(c);
  const int my_node = layout.node_of[static_cast<size_t>(c.me)];
  const int root_node = layout.node_of[static_cast<size_t>(call.root)];
  const std::vector<int>& mine = layout.members[static_cast<size_t>(my_node)];
  const int root_leader = layout.members[static_cast<size_t>(root_node)].front();
  const bool leader = mine.front() == c.me;
  if (mine.size() > 1) {
    if (leader && call.root != c.me && my_node == root_node)
      c.rank.recv(c.comm, call.root, c.tag, call.bytes, call.recv_data);
    if (not leader && call.root == c.me)
      c.rank.send(c.comm, root_leader, c.tag, call.bytes, call.recv_data);
  }
  if (not leader)
    return;
  CollectiveCall among_leaders = call;
  among_leaders.root = root_node;
  run_mpich_by_size(on_communicator(c, layout.leaders()), among_leaders);
}

void mvapich2_node_phase(const CollectiveContext& c, const CollectiveCall& call, bool knomial)
{
  const NodeLayout& layout = coll::node_layout(c);
  const int my_node = layout.node_of[static_cast<size_t>(c.me)];
  const CollectiveContext node = on_communicator(c, layout.intra(static_cast<size_t>(my_node)));
  CollectiveCall from_leader = call;
  from_leader.root = 0;
  if (knomial)
    mvapich2_knomial(node, from_leader);
  else
    run_mpich_by_size(node, from_leader);
}

// Relative rank r receives from r rounded down to a multiple of factor * mask, at the first mask where r is not a
// multiple; then, for each smaller mask, sends to r + k * mask (k = 1..factor-1) at once and waits.
void mvapich2_knomial(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.size <= 1)
    return;
  const int relative = (c.me - call.root + c.size) % c.size;
  int mask = 1;
  while (mask < c.size) {
    if (relative % (kKnomialFactor * mask) != 0) {
      const int source = (relative / (kKnomialFactor * mask) * (kKnomialFactor * mask) + call.root) % c.size;
      c.rank.recv(c.comm, source, c.tag, call.bytes, call.recv_data);
      break;
    }
    mask *= kKnomialFactor;
  }
  for (mask /= kKnomialFactor; mask > 0; mask /= kKnomialFactor) {
    std::vector<RequestPtr> sends;
    for (int k = 1; k < kKnomialFactor; ++k)
      if (relative + mask * k < c.size)
        sends.push_back(c.rank.isend(c.comm, (c.me + mask * k) % c.size, c.tag, call.bytes, call.recv_data));
    c.rank.waitall(sends);
  }
}

} // namespace mpisim::mpi::bcast
