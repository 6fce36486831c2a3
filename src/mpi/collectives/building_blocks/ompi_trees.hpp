// The communication trees of Open MPI's "tuned" collectives, seen from one rank, and Open MPI's rule for how many
// elements make a segment. One builder per shape; every algorithm that moves data along one of these shapes (reduce
// ompi_*, bcast ompi_pipeline and ompi_split_bintree, gather/scatter ompi_binomial and the algorithms running them,
// gather ompi_linear_sync, allreduce ompi_ring_segmented) takes it from here.
// Specification: docs/specifications/ompi-topology-trees.md (every table there is asserted by
// tests/cpp/mpi_coll_ompi_trees_test.cpp).
#pragma once

#include <vector>

namespace mpisim::mpi::ompi {

inline constexpr int kNoParent = -1;

// The rank a tree is built for, in a communicator of `size` ranks, for a tree rooted at `root`.
struct Viewpoint {
  int size = 1;
  int rank = 0;
  int root = 0;

  // Trees are laid out over ranks renumbered so that the root is 0.
  int shifted() const { return to_shifted(rank); }
  int to_shifted(int real) const { return (real - root + size) % size; }
  int to_real(int shifted_rank) const { return (shifted_rank + root) % size; }
};

// One rank's part of a tree: its parent and its children in the order the algorithms visit them.
struct Tree {
  int root = 0;
  int parent = kNoParent;
  std::vector<int> children;
};

// What the builders that accept it report as the root's parent: Open MPI's copies of the trees differ on this. No
// algorithm reads the root's parent; the choice is kept so that each tree matches its specification.
enum class RootParent { Itself, None };

// Children spaced by the width of their level (f = 2: shifted rank 1 has children 3 and 5). `fanout` >= 2.
Tree kary_tree(int fanout, const Viewpoint& at, RootParent root_parent = RootParent::Itself);

// Rooted at rank size - 1 whatever the requested root; every subtree holds consecutive ranks, the higher run first.
Tree in_order_binary_tree(int size, int rank);

// Parent: the shifted rank without its highest set bit; children: its rank plus each higher power of two.
Tree binomial_tree(const Viewpoint& at, RootParent root_parent = RootParent::Itself);

// Parent: the shifted rank without its lowest set bit; children: its rank plus each lower power of two, smallest
// subtree first. Every subtree holds consecutive shifted ranks.
Tree in_order_binomial_tree(const Viewpoint& at, RootParent root_parent = RootParent::Itself);
// The number of ranks in the subtree of `child` (a real rank) of the in-order binomial tree seen from `at`.
int in_order_binomial_subtree_size(const Viewpoint& at, int child);

// Up to 32 chains hanging from the root (at most size - 1), the longer ones first; `chain_count` <= 1 gives the
// pipeline. The root's parent is kNoParent.
inline constexpr int kMaxChains = 32;
Tree chains(int chain_count, const Viewpoint& at);
// root -> root + 1 -> ... -> root + size - 1.
inline Tree pipeline(const Viewpoint& at)
{
  return chains(1, at);
}

// Open MPI's number of elements per segment for segments of about `segment_bytes`: the whole message (`count`
// elements of `element_bytes`) when a segment would be below one element or hold it all; otherwise the segment
// rounded to the nearest element, an exact half going down.
double segment_count(double segment_bytes, double element_bytes, double count);

} // namespace mpisim::mpi::ompi
