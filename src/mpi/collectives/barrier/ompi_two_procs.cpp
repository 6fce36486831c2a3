// barrier "ompi_two_procs": the two ranks exchange empty messages (one sendrecv). Origin: Open MPI coll/tuned
// barrier_intra_two_procs, as SimGrid 3.32 runs it (barrier__ompi_two_procs). Fallback: on any other size SimGrid's
// version pairs rank r with (r + 1) mod 2 and hangs or aborts; we run "ompi_recursivedoubling", Open MPI's choice
// for small communicators.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void barrier_ompi_two_procs(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.size != 2) {
    c.library.run_algorithm(c, "ompi_recursivedoubling", call);
    return;
  }
  const int other = 1 - c.me;
  c.rank.sendrecv(c.comm, other, c.tag, 0, other, c.tag, 0);
}

const RegisterAlgorithm kRegister({Collective::Barrier, "ompi_two_procs", "one exchange between two ranks",
                                   "Open MPI coll/tuned two-process barrier", barrier_ompi_two_procs});

} // namespace
} // namespace mpisim::mpi
