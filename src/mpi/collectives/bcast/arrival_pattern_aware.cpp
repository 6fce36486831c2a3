// bcast "arrival_pattern_aware": the root first hands the buffer to rank 0. Every other rank tells rank 0 it has
// arrived (1 byte); rank 0 repeatedly looks at who has arrived and sends the group of arrived ranks a chain: the
// header (their list) then the data to the first of them, each forwarding header and data to the next. When nobody
// new has arrived, rank 0 serves the lowest unserved rank alone. Up to one segment (8192 B) the data goes whole with
// blocking sends; above, rank 0 sends the whole segments with blocking sends and the others forward each segment as
// it arrives (non-blocking), then the remainder (count % segment elements) goes with the library's bcast.
// Origin: SimGrid 3.32 (its bcast arrival_pattern_aware, from STAR-MPI); see arrival_tracking.hpp for how arrivals
// are seen. SimGrid 3.32's replay aborts on it (a receive truncated), so there is no timing to compare with.
#include "mpi/collectives/bcast/arrival_tracking.hpp"
#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

namespace mpisim::mpi {
namespace {

constexpr long kSegmentBytes = 8192;

// Rank 0 sends the header and the data (whole, or as `pipe_length` segments) to the first rank of a group.
void serve_group(const CollectiveContext& c, const CollectiveCall& call, const bcast::Segments& s, bool whole,
                 const std::vector<int>& group)
{
  const bcast::Header header = bcast::make_header(group);
  c.rank.send(c.comm, group.front(), c.tag, bcast::kHeaderBytes, header.data());
  if (whole) {
    c.rank.send(c.comm, group.front(), c.tag, call.bytes, call.recv_data);
    return;
  }
  for (long i = 0; i < s.pipe_length; ++i)
    c.rank.send(c.comm, group.front(), c.tag, s.segment_bytes(), coll::at(call.recv_data, i * s.segment_bytes()));
}

void run_rank_zero(const CollectiveContext& c, const CollectiveCall& call, const bcast::Segments& s, bool whole)
{
  bcast::ArrivalWatch watch(c);
  while (not watch.all_served()) {
    watch.poll(1);
    std::vector<int> group = watch.take_arrived();
    if (group.empty())
      group.push_back(watch.take_first_unserved());
    serve_group(c, call, s, whole, group);
  }
  watch.finish();
}

void run_other(const CollectiveContext& c, const CollectiveCall& call, const bcast::Segments& s, bool whole)
{
  const bcast::HeaderReceived got = bcast::arrive_and_get_header(c, kAnySource);
  const int position = bcast::position_in(got.header, c.me);
  const int next = got.header[static_cast<size_t>(position) + 1];
  if (whole) {
    c.rank.recv(c.comm, got.source, c.tag, call.bytes, call.recv_data);
    if (next != -1) {
      c.rank.send(c.comm, next, c.tag, bcast::kHeaderBytes, got.header.data());
      c.rank.send(c.comm, next, c.tag, call.bytes, call.recv_data);
    }
    return;
  }
  if (next != -1)
    c.rank.send(c.comm, next, c.tag, bcast::kHeaderBytes, got.header.data());
  std::vector<int> children;
  if (next != -1)
    children.push_back(next);
  bcast::forward_segments(c, got.source, children, s.segment_bytes(), s.pipe_length, call.recv_data,
                          bcast::Forwarding::Nonblocking);
}

void bcast_arrival_pattern_aware(const CollectiveContext& c, const CollectiveCall& call)
{
  bcast::root_to_rank_zero(c, call);
  const bcast::Segments s = bcast::segments_of(call, kSegmentBytes);
  const bool whole = s.count <= s.segment;
  if (c.me == 0)
    run_rank_zero(c, call, s, whole);
  else
    run_other(c, call, s, whole);
  bcast::bcast_remainder(c, call, s);
}

const RegisterAlgorithm kRegister({Collective::Bcast, "arrival_pattern_aware",
                                   "rank 0 chains the ranks in their order of arrival, 8 KiB segments",
                                   "SimGrid 3.32 bcast-arrival-pattern-aware (STAR-MPI)", bcast_arrival_pattern_aware});

} // namespace
} // namespace mpisim::mpi
