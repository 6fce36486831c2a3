// bcast "arrival_pattern_aware_wait": like arrival_pattern_aware, but rank 0 only ever serves ranks that have
// arrived: it looks three times over the unserved ranks, then sends the group of arrived ranks a chain (header,
// then the data as non-blocking segments of 8192 B, the whole buffer when smaller); each rank forwards the header
// and each segment to the next as it arrives. The remainder (count % segment elements) then goes with the library's
// bcast. Origin: SimGrid 3.32 (its bcast arrival_pattern_aware_wait, from STAR-MPI); see arrival_tracking.hpp for how
// arrivals are seen. SimGrid 3.32's replay aborts on it (a receive truncated), so there is no timing to compare with.
#include "mpi/collectives/bcast/arrival_tracking.hpp"
#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

namespace mpisim::mpi {
namespace {

constexpr long kSegmentBytes = 8192;

void run_rank_zero(const CollectiveContext& c, const CollectiveCall& call, double segment_bytes, long pipe_length)
{
  bcast::ArrivalWatch watch(c);
  while (not watch.all_served()) {
    watch.poll(3);
    std::vector<int> group = watch.take_arrived();
    if (group.empty()) {
      watch.wait_for_one();
      continue;
    }
    const bcast::Header header = bcast::make_header(group);
    c.rank.send(c.comm, group.front(), c.tag, bcast::kHeaderBytes, header.data());
    std::vector<RequestPtr> sends;
    for (long i = 0; i < pipe_length; ++i)
      sends.push_back(
          c.rank.isend(c.comm, group.front(), c.tag, segment_bytes, coll::at(call.recv_data, i * segment_bytes)));
    c.rank.waitall(sends);
  }
  watch.finish();
}

void run_other(const CollectiveContext& c, const CollectiveCall& call, double segment_bytes, long pipe_length)
{
  const bcast::HeaderReceived got = bcast::arrive_and_get_header(c, kAnySource);
  const int position = bcast::position_in(got.header, c.me);
  const int next = got.header[static_cast<size_t>(position) + 1];
  const int previous = position == 0 ? 0 : got.header[static_cast<size_t>(position) - 1];
  std::vector<int> children;
  if (next != -1) {
    c.rank.send(c.comm, next, c.tag, bcast::kHeaderBytes, got.header.data());
    children.push_back(next);
  }
  bcast::forward_segments(c, previous, children, segment_bytes, pipe_length, call.recv_data,
                          bcast::Forwarding::Nonblocking);
}

void bcast_arrival_pattern_aware_wait(const CollectiveContext& c, const CollectiveCall& call)
{
  bcast::root_to_rank_zero(c, call);
  const bcast::Segments s = bcast::segments_of(call, kSegmentBytes);
  const bool whole = s.count <= s.segment;
  const double segment_bytes = whole ? call.bytes : s.segment_bytes();
  const long pipe_length = whole ? 1 : s.pipe_length;
  if (c.me == 0)
    run_rank_zero(c, call, segment_bytes, pipe_length);
  else
    run_other(c, call, segment_bytes, pipe_length);
  bcast::bcast_remainder(c, call, s);
}

const RegisterAlgorithm kRegister({Collective::Bcast, "arrival_pattern_aware_wait",
                                   "rank 0 chains the ranks that have arrived, waiting for them, 8 KiB segments",
                                   "SimGrid 3.32 bcast-arrival-pattern-aware-wait (STAR-MPI)",
                                   bcast_arrival_pattern_aware_wait});

} // namespace
} // namespace mpisim::mpi
