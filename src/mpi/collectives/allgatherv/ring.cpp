// allgatherv "ring": P-1 steps; at step i each rank sends its own block to rank me+i and receives the block of rank
// me-i, by sendrecv. Origin: Faraj and Yuan, ICS 2005 (SimGrid's allgatherv "ring").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgatherv_ring(const CollectiveContext& c, const CollectiveCall& call)
{
  const allgather::VBlocks blocks = allgather::v_blocks(call);
  coll::copy(blocks.at(c.me), call.send_data, blocks.counts[c.me]);
  for (int i = 1; i < c.size; ++i) {
    const int src = (c.me - i + c.size) % c.size;
    const int dst = (c.me + i) % c.size;
    c.rank.sendrecv(c.comm, dst, c.tag, call.bytes, src, c.tag, blocks.counts[src], call.send_data, blocks.at(src));
  }
}

const RegisterAlgorithm kRegister({Collective::Allgatherv, "ring", "P-1 sendrecv steps at growing distance",
                                   "Faraj and Yuan, ICS 2005", allgatherv_ring});

} // namespace
} // namespace mpisim::mpi
