// barrier "ompi_tree": with D the smallest power of two >= P, going up (jump = 1, 2, ..., D/2) rank r is paired
// with p = r XOR jump when p < P has no bit below `jump` set, and the lower of the two receives an empty message
// from the higher; coming down (jump = D/2, ..., 1) the lower sends to the higher. That is a binomial fan-in to
// rank 0 followed by the mirror fan-out. Origin: Open MPI
// coll/tuned barrier_intra_tree, as SimGrid 3.32 runs it (barrier__ompi_tree).
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

// Whether r and r XOR jump are paired at this step: the partner has no bit below `jump` and exists.
bool paired(int partner, int jump, int size)
{
  return (partner & (jump - 1)) == 0 && partner < size;
}

void barrier_ompi_tree(const CollectiveContext& c, const CollectiveCall&)
{
  int depth = 1;
  while (depth < c.size)
    depth <<= 1;
  for (int jump = 1; jump < depth; jump <<= 1) {
    const int partner = c.me ^ jump;
    if (not paired(partner, jump, c.size))
      continue;
    if (partner > c.me)
      c.rank.recv(c.comm, partner, c.tag, 0);
    else
      c.rank.send(c.comm, partner, c.tag, 0);
  }
  for (int jump = depth >> 1; jump > 0; jump >>= 1) {
    const int partner = c.me ^ jump;
    if (not paired(partner, jump, c.size))
      continue;
    if (partner > c.me)
      c.rank.send(c.comm, partner, c.tag, 0);
    else
      c.rank.recv(c.comm, partner, c.tag, 0);
  }
}

const RegisterAlgorithm kRegister({Collective::Barrier, "ompi_tree", "binomial fan-in to rank 0, then fan-out",
                                   "Open MPI coll/tuned tree barrier", barrier_ompi_tree});

} // namespace
} // namespace mpisim::mpi
