// allgather and allgatherv "linear_nbc": every rank posts, for each other rank in rank order, a send of its block and
// a receive of the other's, then waits for all. Origin: SimGrid 3.32's non-blocking allgather(v), default selector.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

template <typename BytesFrom>
void exchange_with_all(const CollectiveContext& c, int tag, double send_bytes, BytesFrom bytes_from)
{
  std::vector<RequestPtr> requests;
  requests.reserve(2 * c.size);
  for (int peer = 0; peer < c.size; ++peer) {
    if (peer == c.me)
      continue;
    requests.push_back(c.rank.isend(c.comm, peer, tag, send_bytes));
    requests.push_back(c.rank.irecv(c.comm, peer, tag, bytes_from(peer)));
  }
  c.rank.waitall(requests);
}

void allgather_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange_with_all(c, collective_tag(Collective::Allgather), call.bytes, [&](int) { return call.recv_bytes; });
}

void allgatherv_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange_with_all(c, collective_tag(Collective::Allgatherv), call.bytes,
                    [&](int peer) { return call.recv_counts[peer]; });
}

const RegisterAlgorithm kAllgather({Collective::Allgather, "linear_nbc", "everyone sends to everyone at once",
                                    "SimGrid 3.32 iallgather (default selector)", allgather_linear});
const RegisterAlgorithm kAllgatherv({Collective::Allgatherv, "linear_nbc", "everyone sends to everyone at once",
                                     "SimGrid 3.32 iallgatherv (default selector)", allgatherv_linear});

} // namespace
} // namespace mpisim::mpi
