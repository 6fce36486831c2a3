// allgather and allgatherv "linear_nbc": every rank posts, for each other rank in rank order, a send of its block and
// a receive of the other's, then waits for all. Origin: SimGrid 3.32's non-blocking allgather(v), default selector.
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

template <typename BytesFrom, typename Slot>
void exchange_with_all(const CollectiveContext& c, const CollectiveCall& call, BytesFrom bytes_from, Slot slot)
{
  coll::copy(slot(c.me), call.send_data, bytes_from(c.me));
  std::vector<RequestPtr> requests;
  requests.reserve(2 * static_cast<size_t>(c.size));
  for (int peer = 0; peer < c.size; ++peer) {
    if (peer == c.me)
      continue;
    requests.push_back(c.rank.isend(c.comm, peer, c.tag, call.bytes, call.send_data));
    requests.push_back(c.rank.irecv(c.comm, peer, c.tag, bytes_from(peer), slot(peer)));
  }
  c.rank.waitall(requests);
}

void allgather_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  exchange_with_all(
      c, call, [&](int) { return call.recv_bytes; },
      [&](int peer) { return coll::at(call.recv_data, peer * call.recv_bytes); });
}

void allgatherv_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  const std::vector<double> displs = coll::displacements(call.recv_counts, call.recv_displs);
  exchange_with_all(
      c, call, [&](int peer) { return call.recv_counts[peer]; },
      [&](int peer) { return coll::at(call.recv_data, displs[peer]); });
}

const RegisterAlgorithm kAllgather({Collective::Allgather, "linear_nbc", "everyone sends to everyone at once",
                                    "SimGrid 3.32 iallgather (default selector)", allgather_linear});
const RegisterAlgorithm kAllgatherv({Collective::Allgatherv, "linear_nbc", "everyone sends to everyone at once",
                                     "SimGrid 3.32 iallgatherv (default selector)", allgatherv_linear});

} // namespace
} // namespace mpisim::mpi
