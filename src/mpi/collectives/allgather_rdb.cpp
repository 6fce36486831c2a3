// allgather "rdb": recursive doubling; at step k (mask 2^k) each rank exchanges with rank XOR mask all the blocks of
// its subtree of 2^k ranks, in place in the receive buffer; non-power-of-two sizes pass the missing partner's blocks
// on by recursive halving (see the recursive-doubling building block, docs/specifications/recursive-collectives.md). Origin: MPICH's recursive-doubling allgather (Thakur
// et al. 2005), as SimGrid's "rdb".
#include "mpi/collectives/allgather.hpp"

namespace mpisim::mpi {
namespace {

void allgather_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  allgather::place_own(c, call);
  const std::vector<double> counts(c.size, call.recv_bytes);
  allgather::recursive_doubling(c, counts, coll::displacements(counts, {}), call.recv_data);
}

const RegisterAlgorithm kRegister({Collective::Allgather, "rdb", "recursive doubling",
                                   "MPICH allgather, recursive doubling (Thakur et al. 2005)", allgather_rdb});

} // namespace
} // namespace mpisim::mpi
