// allgatherv "pair": P-1 steps; at step i each rank exchanges its own block with rank me XOR i, by sendrecv. Needs a
// power-of-two size (SimGrid's "pair" refuses other sizes); otherwise runs "ring". Origin: Faraj and Yuan, ICS 2005
// (SimGrid's allgatherv "pair").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgatherv_pair(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not allgather::is_power_of_two(c.size)) {
    c.library.run_algorithm(c, "ring", call);
    return;
  }
  const allgather::VBlocks blocks = allgather::v_blocks(call);
  coll::copy(blocks.at(c.me), call.send_data, blocks.counts[c.me]);
  for (int i = 1; i < c.size; ++i) {
    const int peer = c.me ^ i;
    c.rank.sendrecv(c.comm, peer, c.tag, call.bytes, peer, c.tag, blocks.counts[peer], call.send_data, blocks.at(peer));
  }
}

const RegisterAlgorithm kRegister({Collective::Allgatherv, "pair", "P-1 pairwise exchanges with rank XOR step",
                                   "Faraj and Yuan, ICS 2005", allgatherv_pair});

} // namespace
} // namespace mpisim::mpi
