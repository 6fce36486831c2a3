// bcast "binomial_tree": receive from the parent in a binomial tree rooted at `root`, then send to the children,
// largest subtree first. Origin: MPICH's binomial broadcast; SimGrid 3.32's default bcast.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void bcast_binomial_tree(const CollectiveContext& c, const CollectiveCall& call)
{
  const int tag = c.tag;
  const int relative = (c.me - call.root + c.size) % c.size;
  int mask = 1;
  while (mask < c.size) {
    if (relative & mask) {
      c.rank.recv(c.comm, (c.me - mask + c.size) % c.size, tag, call.bytes, call.recv_data);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (relative + mask < c.size)
      c.rank.send(c.comm, (c.me + mask) % c.size, tag, call.bytes, call.recv_data);
}

const RegisterAlgorithm kRegister({Collective::Bcast, "binomial_tree", "binomial tree, blocking sends",
                                   "MPICH binomial broadcast (Thakur et al. 2005)", bcast_binomial_tree});

} // namespace
} // namespace mpisim::mpi
