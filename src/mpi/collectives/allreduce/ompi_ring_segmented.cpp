// allreduce "ompi_ring_segmented": Open MPI's pipelined ring. The vector is cut into P blocks in rank order, and
// each block into `phases` segments; each phase runs a ring reduce-scatter over the phase's segment of every block
// (each rank sends only to rank + 1 and receives only from rank - 1), after which rank r holds block r + 1 reduced;
// a ring allgather of whole blocks ends it. Segments are Open MPI's 1 MiB rounded to whole elements; the phase
// count is how many rings of P segments the vector holds, plus one for a large enough rest.
// Origin: Open MPI coll/tuned allreduce_intra_ring_segmented, as SimGrid 3.32 allreduce__ompi_ring_segmented.
// Fallbacks: one rank copies; non-commutative operations run redbcast; vectors with fewer than P segments' worth of
// elements (so any vector of at most 1 MiB, where the segment is the whole vector) run lr.
// Specification: docs/specifications/ompi-topology-trees.md, "allreduce ompi_ring_segmented".
#include "mpi/collectives/allreduce/fold_and_combine.hpp"
#include "mpi/collectives/building_blocks/ompi_trees.hpp"

#include <algorithm>
#include <array>

namespace mpisim::mpi {
namespace {

constexpr double kSegmentBytes = 1 << 20;

// `total` elements cut into `parts` contiguous parts in order, the first total mod parts of them one element longer.
struct EvenCut {
  long total = 0;
  long parts = 1;

  long length(long part) const { return total / parts + (part < total % parts ? 1 : 0); }
  long start(long part) const { return part * (total / parts) + std::min(part, total % parts); }
  long longest() const { return (total + parts - 1) / parts; }
};

// How many reduce-scatter rounds the vector takes: one per P segments it holds, plus one when the rest is at least
// one element per rank and over half a round.
long phase_count(long elements, long ranks, long per_segment)
{
  const long round = ranks * per_segment;
  const long rest = elements % round;
  const bool rest_takes_a_phase = rest >= ranks && rest > round / 2;
  return elements / round + (rest_takes_a_phase ? 1 : 0);
}

// Where a rank's data lives: its vector cut into blocks of the rank order, each cut into the phases' segments.
struct RingLayout {
  double element_bytes = 1;
  EvenCut blocks;
  long phases = 1;

  EvenCut segments_of(long block) const { return {blocks.length(block), phases}; }
  double block_offset(long block) const { return bytes(blocks.start(block)); }
  double block_bytes(long block) const { return bytes(blocks.length(block)); }
  double segment_offset(long block, long phase) const
  {
    return bytes(blocks.start(block) + segments_of(block).start(phase));
  }
  double segment_bytes(long block, long phase) const { return bytes(segments_of(block).length(phase)); }
  double longest_segment_bytes() const { return bytes(EvenCut{blocks.longest(), phases}.longest()); }
  double longest_block_bytes() const { return bytes(blocks.longest()); }
  double bytes(long elements) const { return static_cast<double>(elements) * element_bytes; }
};

// This rank on the ring: its two neighbours, and the blocks counted from its own (modulo P).
struct Ring {
  int me;
  int size;

  int next() const { return (me + 1) % size; }
  int previous() const { return (me + size - 1) % size; }
  long block(int offset) const { return ((me + offset) % size + size) % size; }
};

// The reduce-scatter of one phase on segment `phase` of every block: P - 1 steps, each sending the segment this rank
// combined last. Two receive buffers alternate so that the next receive is posted before the previous is waited for.
void reduce_scatter_phase(const CollectiveContext& c, const CollectiveCall& call, const RingLayout& layout,
                          const Ring& ring, long phase, std::array<coll::Temp, 2>& inbox)
{
  const double posted = layout.longest_segment_bytes();
  auto post = [&](int slot) { return c.rank.irecv(c.comm, ring.previous(), c.tag, posted, inbox[slot].data()); };
  auto send_segment = [&](long block) {
    c.rank.send(c.comm, ring.next(), c.tag, layout.segment_bytes(block, phase),
                coll::at(call.recv_data, layout.segment_offset(block, phase)));
  };
  auto combine = [&](int slot, long block) {
    coll::reduce(call, inbox[slot].data(), coll::at(call.recv_data, layout.segment_offset(block, phase)),
                 layout.segment_bytes(block, phase));
  };
  int slot = 0;
  RequestPtr pending = post(slot);
  send_segment(ring.block(0));
  for (int step = 2; step < ring.size; ++step) {
    RequestPtr next = post(slot ^ 1);
    c.rank.wait(*pending);
    const long arrived = ring.block(1 - step);
    combine(slot, arrived);
    send_segment(arrived);
    pending = std::move(next);
    slot ^= 1;
  }
  c.rank.wait(*pending);
  combine(slot, ring.block(1));
}

// After the reduce-scatter rank r holds block r + 1; each step passes on the block received at the step before.
void ring_allgather(const CollectiveContext& c, const CollectiveCall& call, const RingLayout& layout, const Ring& ring)
{
  for (int step = 0; step < ring.size - 1; ++step) {
    const long outgoing = ring.block(1 - step), incoming = ring.block(-step);
    c.rank.sendrecv(c.comm, ring.next(), c.tag, layout.block_bytes(outgoing), ring.previous(), c.tag,
                    layout.longest_block_bytes(), coll::at(call.recv_data, layout.block_offset(outgoing)),
                    coll::at(call.recv_data, layout.block_offset(incoming)));
  }
}

void allreduce_ompi_ring_segmented(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.size == 1) {
    coll::copy(call.recv_data, call.send_data, call.bytes);
    return;
  }
  if (not call.commutative) {
    c.library.run_algorithm(c, "redbcast", call);
    return;
  }
  const long elements = allreduce::element_count(call);
  const auto per_segment =
      static_cast<long>(ompi::segment_count(kSegmentBytes, call.element_bytes, static_cast<double>(elements)));
  if (elements == 0 || elements < c.size * per_segment) {
    c.library.run_algorithm(c, "lr", call);
    return;
  }
  const RingLayout layout{call.element_bytes, EvenCut{elements, c.size}, phase_count(elements, c.size, per_segment)};
  const Ring ring{c.me, c.size};
  coll::copy(call.recv_data, call.send_data, call.bytes);
  std::array<coll::Temp, 2> inbox{coll::Temp(call, layout.longest_segment_bytes()),
                                  coll::Temp(call, layout.longest_segment_bytes())};
  for (long phase = 0; phase < layout.phases; ++phase)
    reduce_scatter_phase(c, call, layout, ring, phase, inbox);
  ring_allgather(c, call, layout, ring);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "ompi_ring_segmented",
                                   "pipelined ring reduce-scatter over 1 MiB segments, then ring allgather",
                                   "Open MPI coll_tuned, SimGrid allreduce__ompi_ring_segmented",
                                   allreduce_ompi_ring_segmented});

} // namespace
} // namespace mpisim::mpi
