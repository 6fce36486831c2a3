// scan and exscan "linear": each rank receives the buffer of every lower rank and sends its own to every higher rank,
// all posted at once, then combines in rank order. Origin: SimGrid 3.32's scan/exscan (its only implementation).
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void prefix_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  coll::Temp lower(call, c.me * call.bytes); // slot p: rank p's buffer
  std::vector<RequestPtr> requests;
  requests.reserve(c.size);
  for (int peer = 0; peer < c.me; ++peer)
    requests.push_back(c.rank.irecv(c.comm, peer, c.tag, call.bytes, lower.at(peer * call.bytes)));
  for (int peer = c.me + 1; peer < c.size; ++peer)
    requests.push_back(c.rank.isend(c.comm, peer, c.tag, call.bytes, call.send_data));
  c.rank.waitall(requests);
  if (not call.has_data())
    return;
  // scan: x0 op ... op x_me; exscan: x0 op ... op x_(me-1) (rank 0's result is undefined: left as it is).
  int last = c.me - 1;
  if (call.op == Collective::Scan)
    coll::copy(call.recv_data, call.send_data, call.bytes);
  else if (last >= 0)
    coll::copy(call.recv_data, lower.at(last-- * call.bytes), call.bytes);
  for (int peer = last; peer >= 0; --peer)
    coll::reduce(call, lower.at(peer * call.bytes), call.recv_data, call.bytes);
}

const RegisterAlgorithm kScan({Collective::Scan, "linear", "receive from all lower ranks, send to all higher",
                               "SimGrid 3.32 scan", prefix_linear});
const RegisterAlgorithm kExscan({Collective::Exscan, "linear", "receive from all lower ranks, send to all higher",
                                 "SimGrid 3.32 exscan", prefix_linear});

} // namespace
} // namespace mpisim::mpi
