// alltoall "bruck": ceil(log2 P) steps; at step k (distance 2^k) each rank sends to rank+2^k, receiving from
// rank-2^k, the blocks whose index has bit k set. Origin: Bruck et al., "Efficient algorithms for all-to-all
// communications in multiport message-passing systems", IEEE TPDS 1997 (SimGrid's "bruck").
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void alltoall_bruck(const CollectiveContext& c, const CollectiveCall& call)
{
  const int tag = collective_tag(Collective::Alltoall);
  for (int distance = 1; distance < c.size; distance *= 2) {
    int blocks = 0;
    for (int block = 1; block < c.size; ++block)
      if (block & distance)
        ++blocks;
    c.rank.sendrecv(c.comm, (c.me + distance) % c.size, tag, blocks * call.bytes,
                    (c.me - distance + c.size) % c.size, tag, blocks * call.recv_bytes);
  }
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "bruck", "log2(P) steps of packed blocks",
                                   "Bruck et al., IEEE TPDS 1997", alltoall_bruck});

} // namespace
} // namespace mpisim::mpi
