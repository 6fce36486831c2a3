// bcast "ompi_pipeline": Open MPI's pipelined chain root -> root+1 -> ... -> root+P-1. Segments of 128 KiB, 64 KiB or
// 16 KiB (Open MPI's fitted decision on P and the message size), in whole elements. The root sends segment after
// segment (non-blocking, completed before the next); the others keep two receives posted and forward each segment
// as it arrives (non-blocking, completed before the next). Origin: Open MPI's coll_tuned
// bcast_intra_pipeline, as in SimGrid 3.32 (its bcast ompi_pipeline). An empty buffer sends nothing (SimGrid
// divides by a zero segment count there).
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/building_blocks/ompi_trees.hpp"

#include <cmath>

namespace mpisim::mpi {
namespace {

double segment_bytes_for(int size, double message_bytes)
{
  if (size < 1.6134e-6 * message_bytes + 2.1102)
    return 1024 << 7;
  if (size < 2.3679e-6 * message_bytes + 1.1787)
    return 1024 << 6;
  if (size < 3.2118e-6 * message_bytes + 8.7936)
    return 1024 << 4;
  return 1024 << 7;
}

void send_to_children(const CollectiveContext& c, const ompi::Tree& node, double bytes, std::byte* data)
{
  std::vector<RequestPtr> sends;
  for (int child : node.children)
    sends.push_back(c.rank.isend(c.comm, child, c.tag, bytes, data));
  c.rank.waitall(sends);
}

void bcast_ompi_pipeline(const CollectiveContext& c, const CollectiveCall& call)
{
  const double element = call.element_bytes > 0 ? call.element_bytes : 1;
  const long count = std::lround(call.bytes / element);
  if (c.size == 1 || count == 0)
    return;
  const auto per_segment = static_cast<long>(
      ompi::segment_count(segment_bytes_for(c.size, call.bytes), element, static_cast<double>(count)));
  const long segments = (count + per_segment - 1) / per_segment;
  const double segment_bytes = static_cast<double>(per_segment) * element;
  const double last_bytes = static_cast<double>(count - (segments - 1) * per_segment) * element;
  auto segment_at = [&](long i) { return coll::at(call.recv_data, static_cast<double>(i) * segment_bytes); };
  const ompi::Tree node = ompi::pipeline({.size = c.size, .rank = c.me, .root = call.root});
  if (c.me == call.root) {
    for (long i = 0; i < segments; ++i)
      send_to_children(c, node, i == segments - 1 ? last_bytes : segment_bytes, segment_at(i));
    return;
  }
  // Two receives in flight: post the next, wait for the previous, forward it.
  RequestPtr previous = c.rank.irecv(c.comm, node.parent, c.tag, segment_bytes, segment_at(0));
  for (long i = 1; i < segments; ++i) {
    RequestPtr next = c.rank.irecv(c.comm, node.parent, c.tag, segment_bytes, segment_at(i));
    c.rank.wait(*previous);
    send_to_children(c, node, segment_bytes, segment_at(i - 1));
    previous = next;
  }
  c.rank.wait(*previous);
  send_to_children(c, node, last_bytes, segment_at(segments - 1));
}

const RegisterAlgorithm kRegister({Collective::Bcast, "ompi_pipeline", "pipelined chain, 16-128 KiB segments",
                                   "Open MPI coll_tuned bcast pipeline, SimGrid 3.32", bcast_ompi_pipeline});

} // namespace
} // namespace mpisim::mpi
