// alltoallv "linear_nbc": post a receive from every other rank in rank order, then a send to every other rank in rank
// order, then wait for all. Origin: SimGrid 3.32's non-blocking alltoallv, used by its default selector.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  const int tag = collective_tag(Collective::Alltoallv);
  std::vector<RequestPtr> requests;
  requests.reserve(2 * c.size);
  for (int peer = 0; peer < c.size; ++peer)
    if (peer != c.me)
      requests.push_back(c.rank.irecv(c.comm, peer, tag, call.recv_counts[peer]));
  for (int peer = 0; peer < c.size; ++peer)
    if (peer != c.me)
      requests.push_back(c.rank.isend(c.comm, peer, tag, call.send_counts[peer]));
  c.rank.waitall(requests);
}

const RegisterAlgorithm kRegister({Collective::Alltoallv, "linear_nbc", "all receives, all sends, then wait",
                                   "SimGrid 3.32 ialltoallv (default selector)", alltoallv_linear});

} // namespace
} // namespace mpisim::mpi
