// alltoallw "linear_nbc": the own block is copied, then a receive from every other rank is posted in rank order, then
// a send to every other rank in rank order, then all are waited for. The front end has packed each peer's block of
// its own datatype, so the blocks are bytes as in alltoallv. Origin: SimGrid 3.32 colls::ialltoallw (its blocking
// alltoallw waits for it), SimGrid's only alltoallw.
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void alltoallw_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  const std::vector<double> send_displs = coll::displacements(call.send_counts, call.send_displs);
  const std::vector<double> recv_displs = coll::displacements(call.recv_counts, call.recv_displs);
  coll::copy(coll::at(call.recv_data, recv_displs[c.me]), coll::at(call.send_data, send_displs[c.me]),
             call.recv_counts[c.me]);
  std::vector<RequestPtr> requests;
  requests.reserve(2 * static_cast<size_t>(c.size));
  for (int peer = 0; peer < c.size; ++peer)
    if (peer != c.me)
      requests.push_back(
          c.rank.irecv(c.comm, peer, c.tag, call.recv_counts[peer], coll::at(call.recv_data, recv_displs[peer])));
  for (int peer = 0; peer < c.size; ++peer)
    if (peer != c.me)
      requests.push_back(
          c.rank.isend(c.comm, peer, c.tag, call.send_counts[peer], coll::at(call.send_data, send_displs[peer])));
  c.rank.waitall(requests);
}

const RegisterAlgorithm kRegister({Collective::Alltoallw, "linear_nbc", "all receives, all sends, then wait",
                                   "SimGrid 3.32 ialltoallw", alltoallw_linear});

} // namespace
} // namespace mpisim::mpi
