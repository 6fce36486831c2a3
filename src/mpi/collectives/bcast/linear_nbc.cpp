// bcast "linear_nbc": the root sends the buffer to every other rank at once (flat tree). Origin: SimGrid 3.32's
// non-blocking broadcast, which its default selector runs for MPI_Ibcast.
#include "mpi/collectives/building_blocks/linear_nbc.hpp"

namespace mpisim::mpi {
namespace {

void bcast_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  linear::fan_out(
      c, call.root, [&](int) { return call.bytes; }, call.recv_data, [&](int) { return call.recv_data; });
}

const RegisterAlgorithm kRegister({Collective::Bcast, "linear_nbc", "the root sends to all at once",
                                   "SimGrid 3.32 ibcast", bcast_linear});

} // namespace
} // namespace mpisim::mpi
