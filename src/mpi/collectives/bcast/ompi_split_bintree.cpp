// bcast "ompi_split_bintree": Open MPI's split binary tree. The buffer is cut in two halves (the first one element
// larger when the count is odd); the root pipelines the first half down its left subtree and the second down its
// right one (Open MPI's binary tree over ranks shifted by the root: odd shifted ranks are on the left, even ones on
// the right), in segments of 1 KiB (8 KiB from 370728 B on), blocking sends. Then each rank swaps halves with its
// pair in the other subtree (shifted ranks 1<->2, 3<->4, ...); on an even number of ranks the last one gets the
// second half from the root. Below one segment per half it runs "SMP_linear".
// Origin: Open MPI's coll_tuned bcast_intra_split_bintree, as in SimGrid 3.32 (its bcast ompi_split_bintree).
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/building_blocks/ompi_trees.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace mpisim::mpi {
namespace {

struct Half {
  long count = 0;    // elements
  double offset = 0; // bytes into the buffer
  long segments = 0;
};

// Segments of this rank's half, from the parent (none at the root), forwarded to the children with blocking sends.
// The pattern of Open MPI: the receive of the next segment is posted before the current one is waited for.
void pipeline_half(const CollectiveContext& c, const CollectiveCall& call, const ompi::Tree& node, const Half& half,
                   long per_segment, double element)
{
  const double segment_bytes = static_cast<double>(per_segment) * element;
  auto bytes_of = [&](long i) {
    return i == half.segments - 1 ? static_cast<double>(half.count - i * per_segment) * element : segment_bytes;
  };
  auto at = [&](long i) { return coll::at(call.recv_data, half.offset + static_cast<double>(i) * segment_bytes); };
  if (node.children.empty()) {
    for (long i = 0; i < half.segments; ++i)
      c.rank.recv(c.comm, node.parent, c.tag, bytes_of(i), at(i));
    return;
  }
  RequestPtr current = c.rank.irecv(c.comm, node.parent, c.tag, bytes_of(0), at(0));
  for (long i = 1; i < half.segments; ++i) {
    RequestPtr next = c.rank.irecv(c.comm, node.parent, c.tag, bytes_of(i), at(i));
    c.rank.wait(*current);
    for (int child : node.children)
      c.rank.send(c.comm, child, c.tag, segment_bytes, at(i - 1));
    current = next;
  }
  c.rank.wait(*current);
  for (int child : node.children)
    c.rank.send(c.comm, child, c.tag, bytes_of(half.segments - 1), at(half.segments - 1));
}

void root_sends_halves(const CollectiveContext& c, const CollectiveCall& call, const ompi::Tree& node,
                       const std::array<Half, 2>& halves, long per_segment, double element)
{
  const double segment_bytes = static_cast<double>(per_segment) * element;
  for (long i = 0; i < halves[0].segments; ++i)
    for (size_t side = 0; side < std::min<size_t>(node.children.size(), 2); ++side) {
      const Half& half = halves[side];
      if (i >= half.segments)
        continue;
      const double bytes =
          i == half.segments - 1 ? static_cast<double>(half.count - i * per_segment) * element : segment_bytes;
      c.rank.send(c.comm, node.children[side], c.tag, bytes,
                  coll::at(call.recv_data, half.offset + static_cast<double>(i) * segment_bytes));
    }
}

void bcast_ompi_split_bintree(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.size == 1)
    return;
  const double element = call.element_bytes > 0 ? call.element_bytes : 1;
  const long count = std::lround(call.bytes / element);
  double segment_size = call.bytes < 370728 ? 1024 : 1024 << 3;
  segment_size = std::max(segment_size, element);
  const long per_segment = static_cast<long>(segment_size / element);
  std::array<Half, 2> halves;
  halves[0].count = count / 2 + count % 2;
  halves[1].count = count - halves[0].count;
  halves[1].offset = static_cast<double>(halves[0].count) * element;
  for (Half& half : halves)
    half.segments = (half.count + per_segment - 1) / per_segment;
  if (halves[0].count == 0 || halves[1].count == 0 || segment_size > static_cast<double>(halves[0].count) * element ||
      segment_size > static_cast<double>(halves[1].count) * element) {
    c.library.run_algorithm(c, "SMP_linear", call);
    return;
  }
  const ompi::Tree node = ompi::kary_tree(2, {.size = c.size, .rank = c.me, .root = call.root}, ompi::RootParent::None);
  const int shifted = (c.me - call.root + c.size) % c.size;
  const int side = (shifted + 1) % 2; // 0: left subtree (first half), 1: right subtree (and the root)
  if (c.me == call.root)
    root_sends_halves(c, call, node, halves, per_segment, element);
  else
    pipeline_half(c, call, node, halves[static_cast<size_t>(side)], per_segment, element);

  // Swap halves with the pair in the other subtree.
  const Half& mine = halves[static_cast<size_t>(side)];
  const Half& other = halves[static_cast<size_t>(1 - side)];
  const int pair = side == 0 ? (c.me + 1) % c.size : (c.me + c.size - 1) % c.size;
  const int last = (call.root + c.size - 1) % c.size;
  auto bytes = [&](const Half& half) { return static_cast<double>(half.count) * element; };
  if (c.size % 2 == 0 && c.me == call.root) {
    c.rank.send(c.comm, last, c.tag, bytes(halves[1]), coll::at(call.recv_data, halves[1].offset));
  } else if (c.size % 2 == 0 && c.me == last) {
    c.rank.recv(c.comm, call.root, c.tag, bytes(halves[1]), coll::at(call.recv_data, halves[1].offset));
  } else if (c.me != call.root) {
    c.rank.sendrecv(c.comm, pair, c.tag, bytes(mine), pair, c.tag, bytes(other), coll::at(call.recv_data, mine.offset),
                    coll::at(call.recv_data, other.offset));
  }
}

const RegisterAlgorithm kRegister({Collective::Bcast, "ompi_split_bintree",
                                   "halves pipelined down the two subtrees of a binary tree, then swapped",
                                   "Open MPI coll_tuned bcast split_bintree, SimGrid 3.32", bcast_ompi_split_bintree});

} // namespace
} // namespace mpisim::mpi
