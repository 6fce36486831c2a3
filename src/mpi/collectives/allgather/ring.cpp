// allgather "ring": P-1 steps; at step i each rank sends its own block to rank me+i and receives the block of rank
// me-i, by sendrecv. Origin: Faraj and Yuan, "Automatic generation and tuning of MPI collective communication
// routines", ICS 2005 (SimGrid's "ring").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_ring(const CollectiveContext& c, const CollectiveCall& call)
{
  allgather::place_own(c, call);
  for (int i = 1; i < c.size; ++i) {
    const int src = (c.me - i + c.size) % c.size;
    const int dst = (c.me + i) % c.size;
    c.rank.sendrecv(c.comm, dst, c.tag, call.bytes, src, c.tag, call.recv_bytes, call.send_data,
                    allgather::slot(call, src));
  }
}

const RegisterAlgorithm kRegister({Collective::Allgather, "ring", "P-1 sendrecv steps at growing distance",
                                   "Faraj and Yuan, ICS 2005", allgather_ring});

} // namespace
} // namespace mpisim::mpi
