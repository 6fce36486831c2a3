// bcast "NTSL" and "NTSL_Isend" (non-topology-specific linear): the root first hands the buffer to rank 0, which
// starts a chain 0 -> 1 -> ... -> P-1. Up to one segment (8192 B) the buffer travels whole with blocking sends;
// above, every rank posts the receives of all whole segments and forwards each one with a non-blocking send as it
// arrives, and the remainder (count % segment elements) is then broadcast with the library's bcast.
// Origin: SimGrid 3.32 (its bcast NTSL, its bcast NTSL_Isend, from STAR-MPI); both send the same messages.
// On one rank there is nothing to do (SimGrid would send to itself).
#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

#include <vector>

namespace mpisim::mpi {
namespace {

constexpr long kSegmentBytes = 8192;

void bcast_ntsl(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.size == 1)
    return;
  const int parent = c.me == 0 ? -1 : c.me - 1;
  std::vector<int> children;
  if (c.me + 1 < c.size)
    children.push_back(c.me + 1);
  bcast::segmented_tree_from_rank_zero(c, call, parent, children, kSegmentBytes, bcast::Forwarding::Nonblocking);
}

const RegisterAlgorithm kRegister({Collective::Bcast, "NTSL", "chain from rank 0, 8 KiB segments, non-blocking",
                                   "SimGrid 3.32 bcast-NTSL (STAR-MPI)", bcast_ntsl});
const RegisterAlgorithm kRegisterIsend({Collective::Bcast, "NTSL_Isend",
                                        "chain from rank 0, 8 KiB segments, non-blocking (same as NTSL)",
                                        "SimGrid 3.32 bcast-NTSL-Isend (STAR-MPI)", bcast_ntsl});

} // namespace
} // namespace mpisim::mpi
