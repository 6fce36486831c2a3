// allgatherv "mpich_rdb": recursive doubling (see the recursive-doubling building block, docs/specifications/recursive-collectives.md) in a scratch buffer holding the
// blocks packed in rank order, copied to their displacements at the end. Nothing is sent when every count is 0
// (SimGrid returns MPI_ERR_COUNT then). Origin: MPICH's recursive-doubling allgatherv (Thakur et al. 2005), as
// SimGrid's "mpich_rdb".
#include "mpi/collectives/allgather.hpp"

namespace mpisim::mpi {
namespace {

void allgatherv_mpich_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  const allgather::VBlocks blocks = allgather::v_blocks(call);
  const double total = coll::total(blocks.counts);
  if (total == 0)
    return;
  const std::vector<double> packed_displs = coll::displacements(blocks.counts, {});
  coll::Temp packed(call, total);
  coll::copy(packed.at(packed_displs[c.me]), call.send_data, blocks.counts[c.me]);
  allgather::recursive_doubling(c, blocks.counts, packed_displs, packed.data());
  for (int r = 0; r < c.size; ++r)
    coll::copy(blocks.at(r), packed.at(packed_displs[r]), blocks.counts[r]);
}

const RegisterAlgorithm kRegister({Collective::Allgatherv, "mpich_rdb", "recursive doubling",
                                   "MPICH allgatherv, recursive doubling (Thakur et al. 2005)", allgatherv_mpich_rdb});

} // namespace
} // namespace mpisim::mpi
