// reduce "NTSL": a pipelined chain root-1 -> root-2 -> ... -> root+1 -> root (each rank receives from me+1 and sends
// to me-1). Buffers of at most 8 KiB go whole with blocking calls; larger ones go in 8 KiB segments (all receives
// posted first, each segment forwarded as soon as it is folded in), and the remainder that does not fill a segment
// is reduced afterwards by SimGrid's default reduce (linear_nbc). Origin: SimGrid 3.32's reduce NTSL
// ("non-topology-specific pipelined linear", from the STAR-MPI collection). Non-commutative operations: the chain
// wraps around rank 0 for most roots, so they run ompi_basic_linear (SimGrid's default choice for them).
#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>
#include <cmath>

namespace mpisim::mpi {
namespace {

constexpr double kSegmentBytes = 8192;

void reduce_NTSL(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not call.commutative) {
    c.library.run_algorithm(c, "ompi_basic_linear", call);
    return;
  }
  if (c.size == 1) {
    coll::copy(call.recv_data, call.send_data, call.bytes);
    return;
  }
  const int to = (c.me - 1 + c.size) % c.size;
  const int from = (c.me + 1) % c.size;
  const int last = (call.root - 1 + c.size) % c.size; // the head of the chain: it only sends
  const double count = coll::elements(call, call.bytes);
  const double segment = std::max(1.0, std::floor(kSegmentBytes / call.element_bytes));
  coll::Temp accumulator(call, call.bytes);
  coll::Temp incoming(call, call.bytes);
  coll::copy(accumulator.data(), call.send_data, call.bytes);
  if (count <= segment) {
    if (c.me != last) {
      c.rank.recv(c.comm, from, c.tag, call.bytes, incoming.data());
      coll::reduce(call, incoming.data(), accumulator.data(), call.bytes);
    }
    if (c.me != call.root)
      c.rank.send(c.comm, to, c.tag, call.bytes, accumulator.data());
    coll::copy(c.me == call.root ? call.recv_data : nullptr, accumulator.data(), call.bytes);
    return;
  }
  const int segments = static_cast<int>(std::floor(count / segment));
  const double segment_bytes = segment * call.element_bytes;
  std::vector<RequestPtr> receives;
  std::vector<RequestPtr> sends;
  if (c.me != last)
    for (int i = 0; i < segments; ++i)
      receives.push_back(c.rank.irecv(c.comm, from, c.tag, segment_bytes, incoming.at(i * segment_bytes)));
  for (int i = 0; i < segments; ++i) {
    if (c.me != last) {
      c.rank.wait(*receives[i]);
      coll::reduce(call, incoming.at(i * segment_bytes), accumulator.at(i * segment_bytes), segment_bytes);
    }
    if (c.me != call.root)
      sends.push_back(c.rank.isend(c.comm, to, c.tag, segment_bytes, accumulator.at(i * segment_bytes)));
  }
  c.rank.waitall(sends);
  if (c.me == call.root)
    coll::copy(call.recv_data, accumulator.data(), segments * segment_bytes);
  const double done = segments * segment_bytes;
  if (done < call.bytes) {
    CollectiveCall rest = call;
    rest.bytes = call.bytes - done;
    rest.send_data = coll::at(call.send_data, done);
    rest.recv_data = coll::at(call.recv_data, done);
    c.library.run_algorithm(c, "linear_nbc", rest);
  }
}

const RegisterAlgorithm kRegister({Collective::Reduce, "NTSL", "pipelined chain towards the root, 8 KiB segments",
                                   "SimGrid 3.32 (STAR-MPI)", reduce_NTSL});

} // namespace
} // namespace mpisim::mpi
