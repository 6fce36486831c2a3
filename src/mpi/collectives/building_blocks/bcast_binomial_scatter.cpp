// The binomial scatter of MPICH's long-message broadcasts (see bcast_binomial_scatter.hpp). Origin: MPICH's
// scatter_for_bcast, as in SimGrid 3.32 (its bcast scatter_LR_allgather and scatter_rdb_allgather).
#include "mpi/collectives/building_blocks/bcast_binomial_scatter.hpp"

#include <cmath>

namespace mpisim::mpi::bcast {

double scatter_piece_bytes(const CollectiveContext& c, const CollectiveCall& call)
{
  return std::floor((call.bytes + c.size - 1) / c.size);
}

// A rank receives once, from the rank `mask` below it (mask = its lowest set bit), everything from its piece to the
// end of its parent's holding, and sends to the ranks `mask` above it, for each lower mask, what lies beyond.
double scatter_for_bcast(const CollectiveContext& c, const CollectiveCall& call)
{
  const double piece = scatter_piece_bytes(c, call);
  const int relative = (c.me - call.root + c.size) % c.size;
  double held = c.me == call.root ? call.bytes : 0;
  int mask = 1;
  while (mask < c.size) {
    if (relative & mask) {
      const int source = (c.me - mask + c.size) % c.size;
      const double expected = call.bytes - relative * piece;
      if (expected <= 0) {
        held = 0;
      } else {
        held = c.rank.recv(c.comm, source, c.tag, expected, coll::at(call.recv_data, relative * piece)).bytes;
      }
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (relative + mask >= c.size)
      continue;
    const double to_send = held - piece * mask;
    if (to_send > 0) {
      const int destination = (c.me + mask) % c.size;
      c.rank.send(c.comm, destination, c.tag, to_send, coll::at(call.recv_data, piece * (relative + mask)));
      held -= to_send;
    }
  }
  return held;
}

} // namespace mpisim::mpi::bcast
