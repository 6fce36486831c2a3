// scan and exscan "linear": each rank receives the buffer of every lower rank and sends its own to every higher rank,
// all posted at once. Origin: SimGrid 3.32's scan/exscan (its only implementation).
//
// The order of combination is SimGrid's for commutative operations: the received buffers are folded in the order
// their requests complete (ties: the lowest rank first), each as the left operand (acc = x_p op acc), starting from
// the rank's own buffer (scan) or from the first buffer to arrive (exscan). For non-commutative operations SimGrid
// waits for the requests in rank order but combines nothing (its scan returns the rank's own buffer, its exscan leaves
// the result untouched): mpisim keeps MPI's result there, x0 op ... op x_me (exscan: up to x_(me-1)), combined from
// the highest rank down.
#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

void combine_in_rank_order(const CollectiveContext& c, const CollectiveCall& call, coll::Temp& lower)
{
  int last = c.me - 1;
  if (call.op == Collective::Scan)
    coll::copy(call.recv_data, call.send_data, call.bytes);
  else if (last >= 0)
    coll::copy(call.recv_data, lower.at(last-- * call.bytes), call.bytes);
  for (int peer = last; peer >= 0; --peer)
    coll::reduce(call, lower.at(peer * call.bytes), call.recv_data, call.bytes);
}

void prefix_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  coll::Temp lower(call, c.me * call.bytes); // slot p: rank p's buffer
  // In place, the rank's input is the result buffer, which is written as receives complete, before the sends that
  // carry the input have: they carry a copy.
  const bool in_place = call.has_data() && call.send_data == call.recv_data && c.me + 1 < c.size;
  coll::Temp own_input(call, in_place ? call.bytes : 0);
  if (in_place)
    coll::copy(own_input.data(), call.send_data, call.bytes);
  const std::byte* outgoing = in_place ? own_input.data() : call.send_data;
  std::vector<RequestPtr> requests; // receives from ranks 0 .. me-1, then sends
  requests.reserve(c.size);
  for (int peer = 0; peer < c.me; ++peer)
    requests.push_back(c.rank.irecv(c.comm, peer, c.tag, call.bytes, lower.at(peer * call.bytes)));
  for (int peer = c.me + 1; peer < c.size; ++peer)
    requests.push_back(c.rank.isend(c.comm, peer, c.tag, call.bytes, outgoing));
  if (not call.commutative || not call.has_data()) {
    c.rank.waitall(requests);
    if (call.has_data())
      combine_in_rank_order(c, call, lower);
    return;
  }
  // Completion order; the indices of the requests still pending, in their original order.
  std::vector<size_t> pending(requests.size());
  for (size_t i = 0; i < pending.size(); ++i)
    pending[i] = i;
  bool empty = true; // exscan: nothing received yet
  if (call.op == Collective::Scan) {
    coll::copy(call.recv_data, call.send_data, call.bytes);
    empty = false;
  }
  while (not pending.empty()) {
    std::vector<RequestPtr> waiting;
    waiting.reserve(pending.size());
    for (size_t i : pending)
      waiting.push_back(requests[i]);
    const size_t done = pending[c.rank.waitany(waiting)];
    pending.erase(std::find(pending.begin(), pending.end(), done));
    const int peer = static_cast<int>(done);
    if (peer >= c.me)
      continue; // a send
    if (empty)
      coll::copy(call.recv_data, lower.at(peer * call.bytes), call.bytes);
    else
      coll::reduce(call, lower.at(peer * call.bytes), call.recv_data, call.bytes);
    empty = false;
  }
}

const RegisterAlgorithm kScan({Collective::Scan, "linear", "receive from all lower ranks, send to all higher",
                               "SimGrid 3.32 scan", prefix_linear});
const RegisterAlgorithm kExscan({Collective::Exscan, "linear", "receive from all lower ranks, send to all higher",
                                 "SimGrid 3.32 exscan", prefix_linear});

} // namespace
} // namespace mpisim::mpi
