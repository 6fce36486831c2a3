// allgather "pair": P-1 steps; at step i each rank exchanges its own block with rank me XOR i, by sendrecv. Needs a
// power-of-two size (SimGrid's "pair" refuses other sizes); otherwise runs "ring", its rotation-based counterpart.
// Origin: Faraj and Yuan, ICS 2005 (SimGrid's "pair").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_pair(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not allgather::is_power_of_two(c.size)) {
    c.library.run_algorithm(c, "ring", call);
    return;
  }
  allgather::place_own(c, call);
  for (int i = 1; i < c.size; ++i) {
    const int peer = c.me ^ i;
    c.rank.sendrecv(c.comm, peer, c.tag, call.bytes, peer, c.tag, call.recv_bytes, call.send_data,
                    allgather::slot(call, peer));
  }
}

const RegisterAlgorithm kRegister({Collective::Allgather, "pair", "P-1 pairwise exchanges with rank XOR step",
                                   "Faraj and Yuan, ICS 2005", allgather_pair});

} // namespace
} // namespace mpisim::mpi
