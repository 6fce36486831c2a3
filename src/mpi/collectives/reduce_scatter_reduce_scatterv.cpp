// reduce_scatter "reduce_scatterv": reduce the whole vector to rank 0, then scatterv the blocks. Origin: SimGrid
// 3.32's default reduce_scatter for regular counts.
#include "mpi/collectives/Collectives.hpp"

#include <numeric>

namespace mpisim::mpi {
namespace {

void reduce_scatter_reduce_scatterv(const CollectiveContext& c, const CollectiveCall& call)
{
  CollectiveCall reduce;
  reduce.op = Collective::Reduce;
  reduce.root = 0;
  reduce.bytes = std::accumulate(call.recv_counts.begin(), call.recv_counts.end(), 0.0);
  c.library.run(c.rank, c.comm, reduce);
  CollectiveCall scatterv;
  scatterv.op = Collective::Scatterv;
  scatterv.root = 0;
  scatterv.send_counts = call.recv_counts;
  scatterv.recv_bytes = call.recv_counts[c.me];
  c.library.run(c.rank, c.comm, scatterv);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "reduce_scatterv", "reduce to rank 0, then scatterv",
                                   "SimGrid 3.32 default reduce_scatter", reduce_scatter_reduce_scatterv});

} // namespace
} // namespace mpisim::mpi
