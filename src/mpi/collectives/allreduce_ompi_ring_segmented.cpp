// allreduce "ompi_ring_segmented": Open MPI's pipelined ring. The vector is cut into P blocks (the first n mod P one
// element longer), each block into `phases` segments (likewise), phases = floor(n / (P * segcount)) plus one when
// the remainder is both >= P and > P * segcount / 2, with segcount the elements of 1 MiB (rounded to nearest).
// Each phase is a ring reduce-scatter of that phase's segments: a rank posts a receive (as large as the largest
// segment), sends its own block's segment, then P - 2 times receives, combines and forwards the segment of the
// block before, with two receive buffers so that the next receive is posted before waiting; last it combines the
// segment of block me + 1. A ring allgather of whole blocks ends (each receive posted for an early block's size).
// When the vector is shorter than P segments (n < P * segcount: up to 1 MiB per rank) it runs lr.
// Origin: Open MPI's coll_tuned allreduce_intra_ring_segmented, as SimGrid 3.32's allreduce__ompi_ring_segmented.
// Fallbacks: redbcast for non-commutative operations (ring order); lr for n = 0 (SimGrid divides by zero there).
#include "mpi/collectives/allreduce_common.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

constexpr double kSegmentBytes = 1 << 20;

// Open MPI's COLL_TUNED_COMPUTE_BLOCKCOUNT: `count` split into `blocks`, the first `split` ones one longer.
struct Split {
  long early, late, split;
  Split(long count, long blocks) : early(count / blocks), late(count / blocks), split(count % blocks)
  {
    if (split != 0)
      ++early;
  }
  long count(long i) const { return i < split ? early : late; }
  long offset(long i) const { return i < split ? i * early : i * late + split; }
};

long segment_elements(long n, double element_bytes)
{
  if (kSegmentBytes < element_bytes || kSegmentBytes >= element_bytes * n)
    return n;
  long segcount = static_cast<long>(kSegmentBytes / element_bytes);
  if (kSegmentBytes - segcount * element_bytes > static_cast<long>(element_bytes) / 2)
    ++segcount;
  return segcount;
}

void allreduce_ompi_ring_segmented(const CollectiveContext& c, const CollectiveCall& call)
{
  const int P = c.size;
  const long n = allreduce::element_count(call);
  const double eb = call.element_bytes;
  if (P == 1) {
    coll::copy(call.recv_data, call.send_data, call.bytes);
    return;
  }
  if (not call.commutative) {
    c.library.run_algorithm(c, "redbcast", call);
    return;
  }
  const long segcount = segment_elements(n, eb);
  if (n == 0 || n < P * segcount) {
    c.library.run_algorithm(c, "lr", call);
    return;
  }
  long phases = n / (P * segcount);
  const long rest = n % (P * segcount);
  if (rest >= P && rest > P * segcount / 2)
    ++phases;
  const Split blocks(n, P);
  const long max_segment = Split(blocks.early, phases).early;
  coll::Temp inbuf[2] = {coll::Temp(call, max_segment * eb), coll::Temp(call, max_segment * eb)};
  coll::copy(call.recv_data, call.send_data, call.bytes);
  const int send_to = (c.me + 1) % P, recv_from = (c.me + P - 1) % P;
  // The segment of block b in this phase, as (offset, bytes).
  auto segment = [&](long b, long phase) {
    const Split segments(blocks.count(b), phases);
    return std::pair{(blocks.offset(b) + segments.offset(phase)) * eb, segments.count(phase) * eb};
  };
  for (long phase = 0; phase < phases; ++phase) {
    int in = 0;
    RequestPtr requests[2];
    requests[in] = c.rank.irecv(c.comm, recv_from, c.tag, max_segment * eb, inbuf[in].data());
    const auto [own_at, own_bytes] = segment(c.me, phase);
    c.rank.send(c.comm, send_to, c.tag, own_bytes, coll::at(call.recv_data, own_at));
    for (int k = 2; k < P; ++k) {
      const long previous_block = (c.me + P - k + 1) % P;
      in ^= 1;
      requests[in] = c.rank.irecv(c.comm, recv_from, c.tag, max_segment * eb, inbuf[in].data());
      c.rank.wait(*requests[in ^ 1]);
      const auto [at, bytes] = segment(previous_block, phase);
      coll::reduce(call, inbuf[in ^ 1].data(), coll::at(call.recv_data, at), bytes);
      c.rank.send(c.comm, send_to, c.tag, bytes, coll::at(call.recv_data, at));
    }
    c.rank.wait(*requests[in]);
    const auto [at, bytes] = segment((c.me + 1) % P, phase);
    coll::reduce(call, inbuf[in].data(), coll::at(call.recv_data, at), bytes);
  }
  for (int k = 0; k < P - 1; ++k) {
    const long recv_block = (c.me + P - k) % P, send_block = (c.me + 1 + P - k) % P;
    c.rank.sendrecv(c.comm, send_to, c.tag, blocks.count(send_block) * eb, recv_from, c.tag, blocks.early * eb,
                    coll::at(call.recv_data, blocks.offset(send_block) * eb),
                    coll::at(call.recv_data, blocks.offset(recv_block) * eb));
  }
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "ompi_ring_segmented",
                                   "pipelined ring reduce-scatter over 1 MiB segments, then ring allgather",
                                   "Open MPI coll_tuned, SimGrid allreduce__ompi_ring_segmented",
                                   allreduce_ompi_ring_segmented});

} // namespace
} // namespace mpisim::mpi
