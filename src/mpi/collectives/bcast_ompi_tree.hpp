// Open MPI's tree shapes (coll_tuned_topo), as SimGrid 3.32 builds them for its ompi_* algorithms.
#pragma once

#include <cmath>
#include <vector>

namespace mpisim::mpi::bcast {

struct TreeNode {
  int parent = -1; // -1 at the root
  std::vector<int> children;
};

// Open MPI's k-ary tree over ranks shifted by the root: shifted rank s sits on level L (the first levels hold 1,
// k, k^2, ... ranks), its children are s + i * k^L for i = 1..k (while below P).
TreeNode ompi_tree(int fanout, int me, int size, int root);

// Open MPI's chain of fanout 1: root -> root+1 -> ... -> root+P-1 (mod P).
TreeNode ompi_chain(int me, int size, int root);

// Open MPI's segment count: `segment_bytes / element_bytes` elements, rounded to the nearest, when a segment holds at
// least one element and fewer than the whole count (COLL_TUNED_COMPUTED_SEGCOUNT); the whole count otherwise.
long ompi_segment_count(double segment_bytes, double element_bytes, long count);

} // namespace mpisim::mpi::bcast
