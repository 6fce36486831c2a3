// allgatherv "mpich_rdb": the recursive-doubling schedule (recursive_doubling.hpp) on the blocks packed in rank order
// in a scratch buffer, each then copied to its displacement. Zero-sized blocks take part like the others, but when
// every count is 0 nothing is sent (SimGrid returns MPI_ERR_COUNT there). Origin: MPICH's recursive-doubling
// allgatherv (Thakur et al. 2005), as SimGrid's "mpich_rdb".
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"
#include "mpi/collectives/building_blocks/recursive_doubling.hpp"

namespace mpisim::mpi {
namespace {

void allgatherv_mpich_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  const allgather::VBlocks user_blocks = allgather::v_blocks(call);
  const double total = coll::total(call.recv_counts);
  if (total == 0)
    return;
  coll::Temp scratch(call, total);
  const recursive_doubling::BlockLayout packed =
      recursive_doubling::BlockLayout::packed(call.recv_counts, scratch.data());
  coll::copy(packed.block(c.me), call.send_data, call.recv_counts[c.me]);
  recursive_doubling::gather(c, packed);
  for (int r = 0; r < c.size; ++r)
    coll::copy(user_blocks.at(r), packed.block(r), call.recv_counts[r]);
}

const RegisterAlgorithm kRegister({Collective::Allgatherv, "mpich_rdb", "recursive doubling",
                                   "MPICH allgatherv, recursive doubling (Thakur et al. 2005)", allgatherv_mpich_rdb});

} // namespace
} // namespace mpisim::mpi
