// allgatherv "GB": gatherv to rank 0, then broadcast from rank 0 of the receive buffer up to the end of its last
// block (max of displacement + count), each with the library's algorithm. Origin: SimGrid's allgatherv "GB".
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgatherv_GB(const CollectiveContext& c, const CollectiveCall& call)
{
  CollectiveCall gather = call;
  gather.op = Collective::Gatherv;
  gather.root = 0;
  c.library.run_part(c, gather);
  const allgather::VBlocks blocks = allgather::v_blocks(call);
  double extent = 0;
  for (int r = 0; r < c.size; ++r)
    extent = std::max(extent, blocks.displs[r] + blocks.counts[r]);
  CollectiveCall bcast = call;
  bcast.op = Collective::Bcast;
  bcast.root = 0;
  bcast.bytes = extent;
  bcast.send_data = nullptr;
  c.library.run_part(c, bcast);
}

const RegisterAlgorithm kRegister({Collective::Allgatherv, "GB", "gatherv to rank 0, then bcast",
                                   "SimGrid (gatherv + bcast)", allgatherv_GB});

} // namespace
} // namespace mpisim::mpi
