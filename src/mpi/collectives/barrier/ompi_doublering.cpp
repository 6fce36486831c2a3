// barrier "ompi_doublering": an empty token goes twice around the ring 0 -> 1 -> ... -> P-1 -> 0 (blocking sends
// and receives); a rank leaves after passing the second token on. Origin: Open MPI coll/tuned
// barrier_intra_doublering, as SimGrid 3.32 runs it (barrier__ompi_doublering; on one rank, rank 0 sends itself the
// token twice, as SimGrid does).
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void pass_token(const CollectiveContext& c, int left, int right)
{
  if (c.me > 0)
    c.rank.recv(c.comm, left, c.tag, 0);
  c.rank.send(c.comm, right, c.tag, 0);
  if (c.me == 0)
    c.rank.recv(c.comm, left, c.tag, 0);
}

void barrier_ompi_doublering(const CollectiveContext& c, const CollectiveCall&)
{
  const int left = (c.me - 1 + c.size) % c.size;
  const int right = (c.me + 1) % c.size;
  pass_token(c, left, right); // everyone has entered
  pass_token(c, left, right); // everyone may leave
}

const RegisterAlgorithm kRegister({Collective::Barrier, "ompi_doublering", "a token twice around the ring",
                                   "Open MPI coll/tuned double ring barrier", barrier_ompi_doublering});

} // namespace
} // namespace mpisim::mpi
