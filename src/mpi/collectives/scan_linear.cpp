// scan and exscan "linear": each rank receives the buffer of every lower rank and sends its own to every higher rank,
// all posted at once. Origin: SimGrid 3.32's scan/exscan (its only implementation).
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void prefix_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  const int tag = collective_tag(call.op);
  std::vector<RequestPtr> requests;
  requests.reserve(c.size);
  for (int peer = 0; peer < c.me; ++peer)
    requests.push_back(c.rank.irecv(c.comm, peer, tag, call.bytes));
  for (int peer = c.me + 1; peer < c.size; ++peer)
    requests.push_back(c.rank.isend(c.comm, peer, tag, call.bytes));
  c.rank.waitall(requests);
}

const RegisterAlgorithm kScan({Collective::Scan, "linear", "receive from all lower ranks, send to all higher",
                               "SimGrid 3.32 scan", prefix_linear});
const RegisterAlgorithm kExscan({Collective::Exscan, "linear", "receive from all lower ranks, send to all higher",
                                 "SimGrid 3.32 exscan", prefix_linear});

} // namespace
} // namespace mpisim::mpi
