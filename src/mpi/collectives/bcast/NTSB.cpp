// bcast "NTSB" (non-topology-specific binary tree): the root first hands the buffer to rank 0, root of the binary
// tree where rank r has children 2r+1 and 2r+2. Up to one segment (8192 B) the buffer travels whole with blocking
// sends (left child first); above, every rank posts the receives of all whole segments and forwards each one to
// its children with non-blocking sends as it arrives, then the remainder (count % segment elements) is broadcast
// with the library's bcast. Origin: SimGrid 3.32 (its bcast NTSB, from STAR-MPI).
#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

#include <vector>

namespace mpisim::mpi {
namespace {

constexpr long kSegmentBytes = 8192;

void bcast_ntsb(const CollectiveContext& c, const CollectiveCall& call)
{
  const int parent = c.me == 0 ? -1 : (c.me - 1) / 2;
  std::vector<int> children;
  for (int child : {2 * c.me + 1, 2 * c.me + 2})
    if (child < c.size)
      children.push_back(child);
  bcast::segmented_tree_from_rank_zero(c, call, parent, children, kSegmentBytes, bcast::Forwarding::Nonblocking);
}

const RegisterAlgorithm kRegister({Collective::Bcast, "NTSB", "binary tree from rank 0, 8 KiB segments",
                                   "SimGrid 3.32 bcast-NTSB (STAR-MPI)", bcast_ntsb});

} // namespace
} // namespace mpisim::mpi
