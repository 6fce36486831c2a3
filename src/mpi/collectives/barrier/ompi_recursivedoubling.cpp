// barrier "ompi_recursivedoubling": with A the largest power of two <= P, each rank r >= A enters with a sendrecv
// with r - A: its empty message reaches r - A, and its receive waits for r - A's release. Ranks below A (after
// receiving their partner's message, if any) exchange empty messages with r XOR 1, r XOR 2, ... (sendrecv), then
// each r < P - A releases r + A. Origin: Open MPI coll/tuned barrier_intra_recursivedoubling, as SimGrid 3.32 runs it
// (barrier__ompi_recursivedoubling).
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void barrier_ompi_recursivedoubling(const CollectiveContext& c, const CollectiveCall&)
{
  int power = 1;
  while (power * 2 <= c.size)
    power *= 2;
  const int extra = c.size - power;
  if (c.me >= power)
    c.rank.sendrecv(c.comm, c.me - power, c.tag, 0, c.me - power, c.tag, 0);
  else if (c.me < extra)
    c.rank.recv(c.comm, c.me + power, c.tag, 0);
  if (c.me < power)
    for (int mask = 1; mask < power; mask <<= 1)
      c.rank.sendrecv(c.comm, c.me ^ mask, c.tag, 0, c.me ^ mask, c.tag, 0);
  if (c.me < extra)
    c.rank.send(c.comm, c.me + power, c.tag, 0);
}

const RegisterAlgorithm kRegister({Collective::Barrier, "ompi_recursivedoubling",
                                   "pairwise exchanges at distances 2^k, extra ranks folded in",
                                   "Open MPI coll/tuned recursive doubling barrier", barrier_ompi_recursivedoubling});

} // namespace
} // namespace mpisim::mpi
