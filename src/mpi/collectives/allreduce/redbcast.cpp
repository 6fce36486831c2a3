// allreduce "redbcast": reduce to rank 0, then broadcast from rank 0, each with the library's own choice for that
// operation. Origin: SimGrid's redbcast; its default selector's allreduce is reduce + bcast.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void allreduce_redbcast(const CollectiveContext& c, const CollectiveCall& call)
{
  // One copy for both parts (a replay rank's frames are copied at each switch: SharedStack): the broadcast's call is
  // the reduction's with another operation and no send buffer.
  CollectiveCall part = call;
  part.op = Collective::Reduce;
  part.root = 0;
  c.library.run_part(c, part);
  part.op = Collective::Bcast;
  part.send_data = nullptr;
  c.library.run_part(c, part);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "redbcast", "reduce to rank 0, then broadcast",
                                   "SimGrid redbcast", allreduce_redbcast});

} // namespace
} // namespace mpisim::mpi
