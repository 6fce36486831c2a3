// allgather "NTSLR": a logical ring; at step i each rank forwards to its right neighbour the block it got at the
// previous step (its own first) and receives from its left neighbour the next one, by sendrecv. Irregular calls
// (send and receive blocks of different sizes) run "linear_nbc", as SimGrid's default. Origin: SimGrid's "NTSLR"
// (non-topology-specific logical ring).
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_NTSLR(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.bytes != call.recv_bytes) {
    c.library.run_algorithm(c, "linear_nbc", call);
    return;
  }
  allgather::place_own(c, call);
  const int right = (c.me + 1) % c.size;
  const int left = (c.me - 1 + c.size) % c.size;
  for (int i = 0; i < c.size - 1; ++i) {
    const int sent = (c.me - i + c.size) % c.size;
    const int received = (c.me - i - 1 + c.size) % c.size;
    c.rank.sendrecv(c.comm, right, c.tag, call.bytes, left, c.tag, call.recv_bytes, allgather::slot(call, sent),
                    allgather::slot(call, received));
  }
}

const RegisterAlgorithm kRegister({Collective::Allgather, "NTSLR", "logical ring, blocking sendrecv per step",
                                   "SimGrid (non-topology-specific logical ring)", allgather_NTSLR});

} // namespace
} // namespace mpisim::mpi
