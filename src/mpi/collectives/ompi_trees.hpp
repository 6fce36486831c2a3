// The communication trees of Open MPI's "tuned" collectives (coll_tuned_topo.c, as in SimGrid 3.32's
// coll_tuned_topo.cpp), seen from one rank: its parent and its children, in the order the algorithms visit them.
// Shared by the Open MPI reduce algorithms; bcast and others use the same trees.
#pragma once

#include <vector>

namespace mpisim::mpi::ompi {

struct Tree {
  int root = 0;
  int parent = -1;          // -1 at the root (some builders give the root itself, as Open MPI does)
  std::vector<int> children;
};

// k-ary tree of the ranks shifted so that `root` is 0: level by level, node s has children s + delta*(i+1).
Tree build_tree(int fanout, int size, int rank, int root);
// Binary tree rooted at size-1 where every subtree holds consecutive ranks (first child: the higher ranks).
Tree build_in_order_bintree(int size, int rank);
// Binomial tree: children index ^ 2^k for the bits above the highest set bit of the relative index.
Tree build_bmtree(int size, int rank, int root);
// Binomial tree whose subtrees hold consecutive relative ranks: children vrank + 2^k below the lowest set bit.
Tree build_in_order_bmtree(int size, int rank, int root);
// `fanout` chains hanging from the root (fanout clamped to 1..min(32, size-1)).
Tree build_chain(int fanout, int size, int rank, int root);

// Elements per segment for a segment of `segment_bytes` (Open MPI's COLL_TUNED_COMPUTED_SEGCOUNT): `count` when
// the segment is smaller than an element or holds the whole buffer, else segment_bytes / type_bytes rounded to
// the nearest.
double segment_count(double segment_bytes, double type_bytes, double count);

} // namespace mpisim::mpi::ompi
