// reduce "arrival_pattern_aware": rank 0 collects in the order the ranks arrive. Each other rank sends rank 0 a
// 1-byte notice and waits for a header (1024 ints) from anyone. Rank 0 polls the ranks it has not heard from with
// MPI_Iprobe, receives the notices that are there, and sends the header listing those ranks, in rank order, to the
// first of them; the header is forwarded along the list, and the data flows down the list (each rank folds in its
// own contribution) back to rank 0, which folds the chain's result into its own; rank 0 polls again until every rank
// has been heard. Buffers of at most 8 KiB go whole (rank 0 also sleeps 0.1 ms after each probe); larger ones go in
// 8 KiB segments (non-blocking sends and receives along the chain, rank 0 receiving each segment in turn), and
// their remainder is reduced afterwards by SimGrid's default reduce (linear_nbc, under a tag of its own as in
// SimGrid). If the root is not rank 0, rank 0 finally sends it the whole buffer. Each MPI_Iprobe costs n * 0.1 ms
// (SimGrid's smpi/iprobe), n counting the failed probes since the last success (SimGrid keeps n process-wide across
// calls; here it starts at 1 in each call). SimGrid 3.32 deadlocks on this algorithm in replay, so its timing is
// not checked against SimGrid's.
// Origin: SimGrid 3.32's reduce arrival_pattern_aware (from the STAR-MPI collection). Non-commutative operations:
// ompi_basic_linear (the chain follows arrival order, not rank order; SimGrid's default reduce also picks it).
#include "mpi/Communicator.hpp"
#include "mpi/Mailbox.hpp"
#include "mpi/World.hpp"
#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>
#include <cmath>

namespace mpisim::mpi {
namespace {

constexpr double kSegmentBytes = 8192;
constexpr int kHeaderInts = 1024;
constexpr double kHeaderBytes = kHeaderInts * sizeof(int);
constexpr double kIprobeSleep = 1e-4;    // smpi/iprobe
constexpr double kPollSleep = 1e-4;      // the algorithm's own sleep after each probe (unsegmented case)
constexpr int kRemainderTagOffset = 100; // collective tags are -100 - operation: -2xx is free
// The notice's byte says nothing, so it has no buffer: one on the stack would be written at delivery, when under
// replay's shared stack (kernel/Stacks.hpp) another rank's frames may lie at its address.
constexpr std::byte* kNoticeBuffer = nullptr;

// MPI_Iprobe as SMPI does it: costs time growing with consecutive failures, then looks for a message from `peer`.
class Prober {
public:
  explicit Prober(const CollectiveContext& c) : c_(c) {}
  bool probe(int peer)
  {
    c_.rank.sleep(failures_ * kIprobeSleep);
    const bool found =
        c_.rank.world().mailbox(c_.rank.world_rank()).find_unexpected(c_.comm.context(), peer, c_.tag) != nullptr;
    failures_ = found ? 1 : failures_ + 1;
    return found;
  }

private:
  const CollectiveContext& c_;
  int failures_ = 1;
};

struct Layout {
  bool whole = true; // at most one segment: no pipeline
  int segments = 0;  // full segments of the pipeline
  double segment_bytes = 0;
};

// Rank 0: polls, sends headers, folds each chain's result in.
void collect(const CollectiveContext& c, const CollectiveCall& call, const Layout& layout, std::byte* accumulator,
             coll::Temp& incoming)
{
  Prober prober(c);
  std::vector<bool> heard(c.size, false);
  std::vector<bool> arrived(c.size, false);
  int count_heard = 0;
  while (count_heard < c.size - 1) {
    for (int peer = 1; peer < c.size; ++peer) {
      if (heard[peer] || (not layout.whole && arrived[peer]))
        continue;
      arrived[peer] = prober.probe(peer);
      if (layout.whole) {
        c.rank.sleep(kPollSleep);
      } else if (arrived[peer]) { // receive the notice at once and start over from the first rank
        c.rank.recv(c.comm, peer, c.tag, 1, kNoticeBuffer);
        peer = 1;
      }
    }
    std::vector<int> header;
    for (int peer = 1; peer < c.size; ++peer)
      if (arrived[peer] && not heard[peer]) {
        if (layout.whole)
          c.rank.recv(c.comm, peer, c.tag, 1, kNoticeBuffer);
        header.push_back(peer);
        heard[peer] = true;
        ++count_heard;
      }
    if (header.empty())
      continue;
    header.push_back(-1);
    header.resize(kHeaderInts, -1);
    c.rank.send(c.comm, header[0], c.tag, kHeaderBytes, header.data());
    const int last = header[std::find(header.begin(), header.end(), -1) - header.begin() - 1];
    if (layout.whole) {
      c.rank.recv(c.comm, last, c.tag, call.bytes, incoming.data());
      coll::reduce(call, incoming.data(), accumulator, call.bytes);
      continue;
    }
    for (int i = 0; i < layout.segments; ++i) {
      const double offset = i * layout.segment_bytes;
      c.rank.recv(c.comm, last, c.tag, layout.segment_bytes, incoming.at(offset));
      coll::reduce(call, incoming.at(offset), coll::at(accumulator, offset), layout.segment_bytes);
    }
  }
}

// Other ranks: notice, header, then receive from the previous rank of the chain, fold in, pass on.
void contribute(const CollectiveContext& c, const CollectiveCall& call, const Layout& layout, std::byte* accumulator,
                coll::Temp& incoming)
{
  c.rank.send(c.comm, 0, c.tag, 1, kNoticeBuffer);
  std::vector<int> header(kHeaderInts, -1);
  if (layout.whole) {
    c.rank.recv(c.comm, kAnySource, c.tag, kHeaderBytes, header.data());
  } else {
    RequestPtr request = c.rank.irecv(c.comm, kAnySource, c.tag, kHeaderBytes, header.data());
    c.rank.wait(*request);
  }
  const int position = static_cast<int>(std::find(header.begin(), header.end(), c.me) - header.begin());
  const int next = header[position + 1];
  if (next != -1)
    c.rank.send(c.comm, next, c.tag, kHeaderBytes, header.data());
  const int to = next == -1 ? 0 : next;
  const int from = position == 0 ? -1 : header[position - 1];
  if (layout.whole) {
    if (from != -1) {
      c.rank.recv(c.comm, from, c.tag, call.bytes, incoming.data());
      coll::reduce(call, incoming.data(), accumulator, call.bytes);
    }
    c.rank.send(c.comm, to, c.tag, call.bytes, accumulator);
    return;
  }
  std::vector<RequestPtr> receives;
  std::vector<RequestPtr> sends;
  if (from != -1)
    for (int i = 0; i < layout.segments; ++i)
      receives.push_back(
          c.rank.irecv(c.comm, from, c.tag, layout.segment_bytes, incoming.at(i * layout.segment_bytes)));
  for (int i = 0; i < layout.segments; ++i) {
    const double offset = i * layout.segment_bytes;
    if (from != -1) {
      c.rank.wait(*receives[i]);
      coll::reduce(call, incoming.at(offset), coll::at(accumulator, offset), layout.segment_bytes);
    }
    sends.push_back(c.rank.isend(c.comm, to, c.tag, layout.segment_bytes, coll::at(accumulator, offset)));
  }
  c.rank.waitall(sends);
}

void reduce_arrival_pattern_aware(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not call.commutative) {
    c.library.run_algorithm(c, "ompi_basic_linear", call);
    return;
  }
  const double count = coll::elements(call, call.bytes);
  const double segment = std::max(1.0, std::floor(kSegmentBytes / call.element_bytes));
  Layout layout;
  layout.whole = count <= segment;
  layout.segments = static_cast<int>(std::floor(count / segment));
  layout.segment_bytes = segment * call.element_bytes;
  coll::Temp accumulator(call, call.bytes);
  coll::Temp incoming(call, call.bytes);
  coll::copy(accumulator.data(), call.send_data, call.bytes);
  if (c.me == 0)
    collect(c, call, layout, accumulator.data(), incoming);
  else
    contribute(c, call, layout, accumulator.data(), incoming);
  if (call.root != 0) {
    if (c.me == 0)
      c.rank.send(c.comm, call.root, c.tag, call.bytes, accumulator.data());
    else if (c.me == call.root)
      c.rank.recv(c.comm, 0, c.tag, call.bytes, accumulator.data());
  }
  if (c.me == call.root)
    coll::copy(call.recv_data, accumulator.data(), layout.whole ? call.bytes : layout.segments * layout.segment_bytes);
  const double done = layout.segments * layout.segment_bytes;
  if (not layout.whole && done < call.bytes) {
    CollectiveCall rest = call;
    rest.bytes = call.bytes - done;
    rest.send_data = coll::at(call.send_data, done);
    rest.recv_data = coll::at(call.recv_data, done);
    // Under a tag of its own, as SimGrid's non-blocking reduce has: a rank still waiting for its header receives
    // from any rank and must not take the remainder that a rank done with the pipeline already sends to the root.
    const CollectiveContext remainder{c.rank, c.comm, c.library, c.me, c.size, c.tag - kRemainderTagOffset};
    c.library.run_algorithm(remainder, "linear_nbc", rest);
  }
}

const RegisterAlgorithm kRegister({Collective::Reduce, "arrival_pattern_aware",
                                   "chains of ranks in order of arrival, pipelined", "SimGrid 3.32 (STAR-MPI)",
                                   reduce_arrival_pattern_aware});

} // namespace
} // namespace mpisim::mpi
