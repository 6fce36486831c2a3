// bcast "arrival_scatter": the root first hands the buffer to rank 0. Every other rank tells rank 0 it has arrived
// (1 byte); rank 0 looks three times over the unserved ranks, sends the header (the list of the group of arrived
// ranks) to each of them, then scatters the buffer among them (count / n elements each, the last one also the
// remainder), and the group completes it with a ring allgather. Below one element per rank it runs "binomial_tree"
// (SimGrid calls the library's bcast, which recurses into arrival_scatter when it is the one configured).
// Origin: SimGrid 3.32 (its bcast arrival_scatter, from STAR-MPI); see arrival_tracking.hpp for how arrivals are
// seen. SimGrid 3.32's replay aborts on it (a receive truncated), so there is no timing to compare with.
#include "mpi/collectives/bcast/arrival_tracking.hpp"
#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

namespace mpisim::mpi {
namespace {

// Piece i of a group of n: count / n elements at i * (count / n), the last one with the remainder.
struct Pieces {
  long count;
  long n;
  double element;
  long share() const { return count / n; } // whole elements per piece; the last piece takes the remainder
  double offset(long i) const { return static_cast<double>(i * share()) * element; }
  double bytes(long i) const { return static_cast<double>(share() + (i == n - 1 ? count % n : 0)) * element; }
};

void run_rank_zero(const CollectiveContext& c, const CollectiveCall& call, long count, double element)
{
  bcast::ArrivalWatch watch(c);
  while (not watch.all_served()) {
    watch.poll(3);
    const std::vector<int> group = watch.take_arrived();
    if (group.empty()) {
      watch.wait_for_one();
      continue;
    }
    const bcast::Header header = bcast::make_header(group);
    for (int member : group)
      c.rank.send(c.comm, member, c.tag, bcast::kHeaderBytes, header.data());
    const Pieces pieces{count, static_cast<long>(group.size()), element};
    for (long i = 0; i < pieces.n; ++i)
      c.rank.send(c.comm, group[static_cast<size_t>(i)], c.tag, pieces.bytes(i),
                  coll::at(call.recv_data, pieces.offset(i)));
  }
  watch.finish();
}

void run_other(const CollectiveContext& c, const CollectiveCall& call, long count, double element)
{
  const bcast::HeaderReceived got = bcast::arrive_and_get_header(c, 0);
  const long position = bcast::position_in(got.header, c.me);
  const long n = bcast::group_size(got.header);
  const Pieces pieces{count, n, element};
  c.rank.recv(c.comm, 0, c.tag, pieces.bytes(position), coll::at(call.recv_data, pieces.offset(position)));
  const int to = got.header[static_cast<size_t>((position + 1) % n)];
  const int from = got.header[static_cast<size_t>((position + n - 1) % n)];
  for (long step = 0; step < n - 1; ++step) {
    const long sent = (position - step + n) % n;
    const long received = (position - step - 1 + n) % n;
    c.rank.sendrecv(c.comm, to, c.tag, pieces.bytes(sent), from, c.tag, pieces.bytes(received),
                    coll::at(call.recv_data, pieces.offset(sent)), coll::at(call.recv_data, pieces.offset(received)));
  }
}

void bcast_arrival_scatter(const CollectiveContext& c, const CollectiveCall& call)
{
  const bcast::Segments s = bcast::segments_of(call, 1);
  if (s.count < c.size) {
    c.library.run_algorithm(c, "binomial_tree", call);
    return;
  }
  bcast::root_to_rank_zero(c, call);
  if (c.me == 0)
    run_rank_zero(c, call, s.count, s.element_bytes);
  else
    run_other(c, call, s.count, s.element_bytes);
}

const RegisterAlgorithm kRegister({Collective::Bcast, "arrival_scatter",
                                   "rank 0 scatters to the ranks that have arrived, which allgather in a ring",
                                   "SimGrid 3.32 bcast-arrival-scatter (STAR-MPI)", bcast_arrival_scatter});

} // namespace
} // namespace mpisim::mpi
