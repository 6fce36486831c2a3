// Shared by the two-level gather, scatter and barrier algorithms of MVAPICH2 and MPICH (as SimGrid 3.32 runs them):
// sub-contexts on the intra-node and leader communicators.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mpisim::mpi::two_level {

// This rank's place in the two-level (node, leader) decomposition of a communicator.
struct Place {
  const NodeLayout& layout;
  int node;       // this rank's node
  int local_rank; // its rank in the node's communicator (0: the node's leader)
  int local_size;

  int node_count() const { return static_cast<int>(layout.members.size()); }
  bool leader() const { return local_rank == 0; }
  // The communicator's rank of the leader of `rank`'s node.
  int leader_of(int rank) const { return layout.members[layout.node_of[rank]][0]; }
};

inline Place place_of(const CollectiveContext& c)
{
  const NodeLayout& layout = coll::node_layout(c);
  const int node = layout.node_of[c.me];
  const auto& members = layout.members[node];
  const int local = static_cast<int>(std::find(members.begin(), members.end(), c.me) - members.begin());
  return {layout, node, local, static_cast<int>(members.size())};
}

// A context for this rank on a sub-communicator (same library and tag; the communicator keeps the traffic apart).
inline CollectiveContext sub_context(const CollectiveContext& c, const Communicator& comm)
{
  return {c.rank, comm, c.library, comm.local_rank(c.rank.world_rank()), comm.size(), c.tag};
}

// Blocks of `block` bytes are held per node (node order, members ascending within a node) by the two-level
// algorithms, and per rank (rank order) by the user. These convert between the two orders at the root.
inline void node_order_from_rank_order(const NodeLayout& layout, double block, const std::byte* by_rank,
                                       std::byte* by_node)
{
  double offset = 0;
  for (const auto& members : layout.members)
    for (int rank : members) {
      coll::copy(coll::at(by_node, offset), coll::at(by_rank, rank * block), block);
      offset += block;
    }
}
inline void rank_order_from_node_order(const NodeLayout& layout, double block, const std::byte* by_node,
                                       std::byte* by_rank)
{
  double offset = 0;
  for (const auto& members : layout.members)
    for (int rank : members) {
      coll::copy(coll::at(by_rank, rank * block), coll::at(by_node, offset), block);
      offset += block;
    }
}

} // namespace mpisim::mpi::two_level
