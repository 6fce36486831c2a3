// bcast "flattree_pipeline": the buffer is cut into segments of 8192 B (whole elements); the root sends, rank after
// rank, every segment with blocking sends; the others post every receive and wait for them all. Below one segment
// it runs "flattree". Origin: SimGrid 3.32 (its bcast flattree_pipeline, STAR-MPI).
//
// SimGrid never sends the elements after the last whole segment (count % segment): the messages are kept, and when
// the call carries data (online mode) the root sends that remainder to each rank in one more message, so the data
// is right; replay sees SimGrid's messages exactly.
#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

#include <vector>

namespace mpisim::mpi {
namespace {

constexpr long kSegmentBytes = 8192;

void bcast_flattree_pipeline(const CollectiveContext& c, const CollectiveCall& call)
{
  const bcast::Segments s = bcast::segments_of(call, kSegmentBytes);
  if (s.pipe_length == 0) {
    c.library.run_algorithm(c, "flattree", call);
    return;
  }
  const double tail_offset = s.bytes_of(s.pipe_length * s.segment);
  const double tail_bytes = s.bytes_of(s.remainder);
  const bool send_tail = call.has_data() && s.remainder > 0;
  if (c.me != call.root) {
    std::vector<RequestPtr> receives;
    for (long i = 0; i < s.pipe_length; ++i)
      receives.push_back(
          c.rank.irecv(c.comm, call.root, c.tag, s.segment_bytes(), coll::at(call.recv_data, i * s.segment_bytes())));
    c.rank.waitall(receives);
    if (send_tail)
      c.rank.recv(c.comm, call.root, c.tag, tail_bytes, coll::at(call.recv_data, tail_offset));
    return;
  }
  for (int peer = 0; peer < c.size; ++peer) {
    if (peer == c.me)
      continue;
    for (long i = 0; i < s.pipe_length; ++i)
      c.rank.send(c.comm, peer, c.tag, s.segment_bytes(), coll::at(call.recv_data, i * s.segment_bytes()));
    if (send_tail)
      c.rank.send(c.comm, peer, c.tag, tail_bytes, coll::at(call.recv_data, tail_offset));
  }
}

const RegisterAlgorithm kRegister({Collective::Bcast, "flattree_pipeline",
                                   "root sends 8 KiB segments to each rank in turn, blocking",
                                   "SimGrid 3.32 bcast-flattree-pipeline (STAR-MPI)", bcast_flattree_pipeline});

} // namespace
} // namespace mpisim::mpi
