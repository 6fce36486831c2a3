// barrier "mvapich2_pair": with A the largest power of two <= P, each rank r >= A exchanges empty messages with
// r - A (sendrecv); each r < P - A first receives r + A's message, then every rank below A exchanges with r XOR 1,
// r XOR 2, ... (sendrecv), and each r < P - A finally releases r + A. One rank returns at once. Origin: MVAPICH2's
// pairwise-exchange barrier (MPIR_Pairwise_Barrier_MV2), as SimGrid 3.32 runs it (barrier__mvapich2_pair); the same
// messages as ompi_recursivedoubling.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void barrier_mvapich2_pair(const CollectiveContext& c, const CollectiveCall&)
{
  if (c.size == 1)
    return;
  int power = 1;
  while (power * 2 <= c.size)
    power *= 2;
  const int surfeit = c.size - power;
  if (c.me >= power) {
    c.rank.sendrecv(c.comm, c.me - power, c.tag, 0, c.me - power, c.tag, 0);
    return;
  }
  if (c.me < surfeit)
    c.rank.recv(c.comm, c.me + power, c.tag, 0);
  for (int distance = 1; distance < power; distance <<= 1)
    c.rank.sendrecv(c.comm, c.me ^ distance, c.tag, 0, c.me ^ distance, c.tag, 0);
  if (c.me < surfeit)
    c.rank.send(c.comm, c.me + power, c.tag, 0);
}

const RegisterAlgorithm kRegister({Collective::Barrier, "mvapich2_pair",
                                   "pairwise exchanges at distances 2^k, extra ranks folded in",
                                   "MVAPICH2 pairwise barrier", barrier_mvapich2_pair});

} // namespace
} // namespace mpisim::mpi
