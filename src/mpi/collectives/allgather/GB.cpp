// allgather "GB": gather to rank 0, then broadcast of the whole result from rank 0, each with the library's
// algorithm. Origin: SimGrid's "GB" (gather + bcast).
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_GB(const CollectiveContext& c, const CollectiveCall& call)
{
  CollectiveCall gather = call;
  gather.op = Collective::Gather;
  gather.root = 0;
  c.library.run_part(c, gather);
  CollectiveCall bcast = call;
  bcast.op = Collective::Bcast;
  bcast.root = 0;
  bcast.bytes = call.recv_bytes * c.size;
  bcast.send_data = nullptr;
  c.library.run_part(c, bcast);
}

const RegisterAlgorithm kRegister({Collective::Allgather, "GB", "gather to rank 0, then bcast",
                                   "SimGrid (gather + bcast)", allgather_GB});

} // namespace
} // namespace mpisim::mpi
