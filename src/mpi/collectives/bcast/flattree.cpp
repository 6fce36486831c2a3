// bcast "flattree": the root posts a non-blocking send of the whole buffer to every other rank, in rank order, and
// waits for them all; the others receive from the root. Origin: SimGrid 3.32 (its bcast flattree, STAR-MPI).
#include "mpi/collectives/CollectiveData.hpp"

#include <vector>

namespace mpisim::mpi {
namespace {

void bcast_flattree(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.me != call.root) {
    c.rank.recv(c.comm, call.root, c.tag, call.bytes, call.recv_data);
    return;
  }
  std::vector<RequestPtr> sends;
  for (int peer = 0; peer < c.size; ++peer)
    if (peer != c.me)
      sends.push_back(c.rank.isend(c.comm, peer, c.tag, call.bytes, call.recv_data));
  c.rank.waitall(sends);
}

const RegisterAlgorithm kRegister({Collective::Bcast, "flattree", "root sends to every rank, non-blocking",
                                   "SimGrid 3.32 bcast-flattree (STAR-MPI)", bcast_flattree});

} // namespace
} // namespace mpisim::mpi
