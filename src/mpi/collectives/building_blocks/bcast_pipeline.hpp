// Helpers shared by the bcast algorithms: segmenting a buffer at element boundaries, the "root hands the buffer to
// rank 0 first" step of the algorithms that build their tree from rank 0, forwarding segments along a tree, and the
// fallback SimGrid's SMP-aware algorithms take on non-uniform communicators (bcast__mpich).
#pragma once

#include "mpi/World.hpp"
#include "mpi/collectives/CollectiveData.hpp"

#include <span>
#include <vector>

namespace mpisim::mpi::bcast {

// A buffer cut into `pipe_length` segments of `segment` elements, plus a remainder that the algorithms of SimGrid
// broadcast afterwards with the library's bcast (count % segment elements).
struct Segments {
  double element_bytes = 1;
  long count = 0;       // elements in the buffer
  long segment = 1;     // elements per segment (at least 1)
  long pipe_length = 0; // whole segments
  long remainder = 0;   // elements left over
  double segment_bytes() const { return static_cast<double>(segment) * element_bytes; }
  double bytes_of(long elements) const { return static_cast<double>(elements) * element_bytes; }
};

// SimGrid's convention: segment = max(1, segment_size_in_bytes / extent) elements (integer division).
Segments segments_of(const CollectiveCall& call, long segment_size_in_bytes);

// If the root is not rank 0, the root sends the whole buffer to rank 0 (blocking), which then acts as the root.
void root_to_rank_zero(const CollectiveContext& c, const CollectiveCall& call);

// Broadcasts the remainder elements (after the whole segments) with the library's bcast, from the call's root, as
// SimGrid's segmented algorithms do when count is not a multiple of the segment and count > segment.
void bcast_remainder(const CollectiveContext& c, const CollectiveCall& call, const Segments& segments);

enum class Forwarding { Blocking, Nonblocking };

// One node of a tree that moves `pipe_length` segments of `segment_bytes` each, starting at `buffer`: the source
// (parent < 0) sends segment after segment to every child in order; the others post every receive from the parent
// at once, then forward each segment to the children as it arrives. Non-blocking forwarding waits for every send at
// the end.
void forward_segments(const CollectiveContext& c, int parent, std::span<const int> children, double segment_bytes,
                      long pipe_length, std::byte* buffer, Forwarding forwarding);

// The body shared by SimGrid's segmented trees rooted at rank 0 (NTSB, NTSL, SMP_binary, SMP_linear): the root hands
// the buffer to rank 0; a buffer of at most one segment of `segment_size_in_bytes` moves whole, blocking; otherwise
// the whole segments go down the tree (`forwarding`) and the remainder through the library's bcast.
void segmented_tree_from_rank_zero(const CollectiveContext& c, const CollectiveCall& call, int parent,
                                   std::span<const int> children, long segment_size_in_bytes, Forwarding forwarding);

// One node of a tree moving the whole buffer once, blocking: receive from the parent (if any), send to each child.
void forward_whole(const CollectiveContext& c, int parent, std::span<const int> children, double bytes,
                   std::byte* buffer);

// SimGrid 3.32's bcast__mpich on a communicator that is not uniform (the SMP-aware algorithms' fallback):
// binomial_tree below 12288 B or on <= 8 ranks, scatter_rdb_allgather below 524288 B on an even number of ranks,
// scatter_LR_allgather otherwise.
void run_mpich_fallback(const CollectiveContext& c, const CollectiveCall& call);

// Ranks per node when every node holds as many ranks (SimGrid's is_uniform), 0 otherwise.
int uniform_ranks_per_node(const CollectiveContext& c);

// The context of this rank on a sub-communicator it belongs to (same tag, same library).
CollectiveContext on_communicator(const CollectiveContext& c, const Communicator& comm);

// MPICH's bcast choice on a communicator whose ranks are each on their own node or all on one (SimGrid's
// bcast__mpich on its SMP sub-communicators): binomial_tree, scatter_rdb_allgather or scatter_LR_allgather by size.
void run_mpich_by_size(const CollectiveContext& c, const CollectiveCall& call);

// A copy of the call restricted to `bytes` bytes starting `offset` bytes into the buffer.
CollectiveCall sub_call(const CollectiveCall& call, double offset, double bytes);

} // namespace mpisim::mpi::bcast
