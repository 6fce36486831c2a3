// Shapes shared by the gather, scatter and barrier algorithms of Open MPI and MVAPICH2 (as SimGrid 3.32 runs them):
// Open MPI's in-order binomial tree, the segment count of its linear synchronised gather, and sub-contexts on the
// intra-node and leader communicators of the two-level algorithms.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mpisim::mpi::trees {

// Open MPI's in-order binomial tree (ompi_coll_tuned_topo_build_in_order_bmtree) rooted at `root`: in relative ranks
// v = (rank - root) mod P, the children of v are v + 1, v + 2, v + 4, ... below v's lowest set bit (smallest first),
// and the parent of v clears that bit. The subtree of child k holds the relative ranks [k, k + blocks), so a gather
// or scatter moves contiguous runs of blocks in relative-rank order.
struct InOrderBinomialTree {
  int relative = 0;          // this rank's relative rank
  int parent = -1;           // real rank; -1 at the root
  std::vector<int> children; // real ranks, smallest subtree first
  std::vector<int> blocks;   // the number of ranks in each child's subtree
};

inline InOrderBinomialTree in_order_binomial_tree(int me, int root, int size)
{
  InOrderBinomialTree tree;
  tree.relative = (me - root + size) % size;
  for (int mask = 1; mask < size; mask <<= 1) {
    const int remote = tree.relative ^ mask;
    if (remote < tree.relative) {
      tree.parent = (remote + root) % size;
      break;
    }
    if (remote < size) {
      tree.children.push_back((remote + root) % size);
      tree.blocks.push_back(std::min(remote - tree.relative, size - remote));
    }
  }
  return tree;
}

// Open MPI's COLL_TUNED_COMPUTED_SEGCOUNT: how many elements of `element_bytes` make a segment of `segment_bytes`
// (rounded to the nearest element), or all `count` when the segment would hold them all.
inline double segment_count(double segment_bytes, double element_bytes, double count)
{
  if (segment_bytes < element_bytes || segment_bytes >= element_bytes * count)
    return count;
  double elements = std::floor(segment_bytes / element_bytes);
  if (segment_bytes - elements * element_bytes > std::floor(element_bytes / 2))
    elements += 1;
  return elements;
}

// This rank's place in the two-level (node, leader) decomposition of a communicator.
struct TwoLevel {
  const NodeLayout& layout;
  int node;       // this rank's node
  int local_rank; // its rank in the node's communicator (0: the node's leader)
  int local_size;

  int node_count() const { return static_cast<int>(layout.members.size()); }
  bool leader() const { return local_rank == 0; }
  // The communicator's rank of the leader of `rank`'s node.
  int leader_of(int rank) const { return layout.members[layout.node_of[rank]][0]; }
};

inline TwoLevel two_level(const CollectiveContext& c)
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

} // namespace mpisim::mpi::trees
