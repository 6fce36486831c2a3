// allreduce "redbcast": reduce to rank 0, then broadcast from rank 0, each with the library's own choice for that
// operation. Origin: SimGrid's redbcast; its default selector's allreduce is reduce + bcast.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void allreduce_redbcast(const CollectiveContext& c, const CollectiveCall& call)
{
  CollectiveCall reduce = call;
  reduce.op = Collective::Reduce;
  reduce.root = 0;
  c.library.run_part(c, reduce);
  CollectiveCall bcast = call;
  bcast.op = Collective::Bcast;
  bcast.root = 0;
  bcast.send_data = nullptr;
  c.library.run_part(c, bcast);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "redbcast", "reduce to rank 0, then broadcast",
                                   "SimGrid redbcast", allreduce_redbcast});

} // namespace
} // namespace mpisim::mpi
