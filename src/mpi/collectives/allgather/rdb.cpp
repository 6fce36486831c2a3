// allgather "rdb": the recursive-doubling schedule (recursive_doubling.hpp) on blocks of recv_bytes, in place in the
// receive buffer: at level i each rank trades the blocks of its group of 2^i ranks with rank XOR 2^i, and for
// non-power-of-two sizes the blocks of a group cut by P are passed on by halving. Every message is sent, even with
// 0-byte blocks. Origin: MPICH's recursive-doubling allgather (Thakur et al. 2005), as SimGrid's "rdb".
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"
#include "mpi/collectives/building_blocks/recursive_doubling.hpp"

namespace mpisim::mpi {
namespace {

void allgather_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  allgather::place_own(c, call);
  const std::vector<double> block_sizes(c.size, call.recv_bytes);
  recursive_doubling::gather(c, recursive_doubling::BlockLayout::packed(block_sizes, call.recv_data));
}

const RegisterAlgorithm kRegister({Collective::Allgather, "rdb", "recursive doubling",
                                   "MPICH allgather, recursive doubling (Thakur et al. 2005)", allgather_rdb});

} // namespace
} // namespace mpisim::mpi
