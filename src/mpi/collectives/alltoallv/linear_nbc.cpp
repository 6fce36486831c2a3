// alltoallv "linear_nbc": post a receive from every other rank in rank order, then a send to every other rank in rank
// order, then wait for all. Origin: SimGrid 3.32's non-blocking alltoallv, used by its default selector.
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void alltoallv_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  const int tag = c.tag;
  const std::vector<double> send_displs = coll::displacements(call.send_counts, call.send_displs);
  const std::vector<double> recv_displs = coll::displacements(call.recv_counts, call.recv_displs);
  coll::copy(coll::at(call.recv_data, recv_displs[c.me]), coll::at(call.send_data, send_displs[c.me]),
             call.recv_counts[c.me]);
  std::vector<RequestPtr> requests;
  requests.reserve(2 * static_cast<size_t>(c.size));
  for (int peer = 0; peer < c.size; ++peer)
    if (peer != c.me)
      requests.push_back(
          c.rank.irecv(c.comm, peer, tag, call.recv_counts[peer], coll::at(call.recv_data, recv_displs[peer])));
  for (int peer = 0; peer < c.size; ++peer)
    if (peer != c.me)
      requests.push_back(
          c.rank.isend(c.comm, peer, tag, call.send_counts[peer], coll::at(call.send_data, send_displs[peer])));
  c.rank.waitall(requests);
}

const RegisterAlgorithm kRegister({Collective::Alltoallv, "linear_nbc", "all receives, all sends, then wait",
                                   "SimGrid 3.32 ialltoallv (default selector)", alltoallv_linear});

} // namespace
} // namespace mpisim::mpi
