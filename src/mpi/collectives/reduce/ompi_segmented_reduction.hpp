// The segmented tree reduction of Open MPI's tuned module (ompi_coll_tuned_reduce_generic, as SimGrid 3.32's
// smpi_coll_tuned_ompi_reduce_generic), shared by reduce ompi_chain, ompi_pipeline, ompi_binary, ompi_binomial and
// ompi_in_order_binary.
//
// Leaves send their buffer to their parent segment by segment with blocking sends. An inner node, for each segment
// and each child in order, posts the receive of that child's segment and then waits for the previous receive (the
// previous child, or the last child of the previous segment) and folds it in; once the last child of a segment is
// folded in, the segment goes to the parent (blocking send). Two receive buffers alternate, so a receive is always
// in flight while the previous one is combined.
//
// Data: each node folds a child's partial result in as child op mine; that is MPI's order on the in-order binary
// tree (first child: the higher ranks, then the lower ones). The other trees are used for commutative operations only.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/building_blocks/ompi_trees.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace mpisim::mpi::reduce_ompi {

// Reduces to `tree.root`, whose result goes to `result` (null in replay); `segment` is the number of elements per
// segment (> 0).
inline void generic(const CollectiveContext& c, const CollectiveCall& call, const ompi::Tree& tree, double segment,
                    std::byte* result)
{
  const double count = coll::elements(call, call.bytes);
  const double element = call.element_bytes;
  const int segments = static_cast<int>(std::ceil(count / segment));
  if (tree.children.empty()) {
    for (int s = 0; s < segments; ++s) {
      const double bytes = std::min(segment, count - s * segment) * element;
      c.rank.send(c.comm, tree.parent, c.tag, bytes, coll::at(call.send_data, s * segment * element));
    }
    return;
  }
  coll::Temp accumulator(call, call.bytes);
  coll::copy(accumulator.data(), call.send_data, call.bytes);
  std::array<coll::Temp, 2> incoming{coll::Temp(call, segment * element), coll::Temp(call, segment * element)};
  std::array<RequestPtr, 2> pending;
  auto segment_bytes = [&](int s) { return (s == segments - 1 ? count - s * segment : segment) * element; };
  // Waits for the receive in slot `slot` and folds it into segment `s` of the accumulator.
  auto fold = [&](int slot, int s) {
    c.rank.wait(*pending[slot]);
    pending[slot].reset();
    coll::reduce(call, incoming[slot].data(), accumulator.at(s * segment * element), segment_bytes(s));
  };
  int slot = 0;
  for (int s = 0; s <= segments; ++s) {
    for (size_t i = 0; i < tree.children.size(); ++i) {
      if (s < segments)
        pending[slot] = c.rank.irecv(c.comm, tree.children[i], c.tag, segment_bytes(s), incoming[slot].data());
      if (i > 0) {
        fold(slot ^ 1, s);
      } else if (s > 0) {
        fold(slot ^ 1, s - 1);
        if (c.me != tree.root)
          c.rank.send(c.comm, tree.parent, c.tag, segment_bytes(s - 1), accumulator.at((s - 1) * segment * element));
        if (s == segments)
          break;
      }
      slot ^= 1;
    }
  }
  if (c.me == tree.root)
    coll::copy(result, accumulator.data(), call.bytes);
}

// Runs `generic` on the tree rooted at the call's root, after the cases it does not handle: an empty buffer (Open
// MPI divides by the segment count) and a single rank.
inline void rooted(const CollectiveContext& c, const CollectiveCall& call, const ompi::Tree& tree, double segment)
{
  if (call.bytes == 0)
    return;
  if (c.size == 1) {
    coll::copy(call.recv_data, call.send_data, call.bytes);
    return;
  }
  generic(c, call, tree, segment, call.recv_data);
}

} // namespace mpisim::mpi::reduce_ompi
