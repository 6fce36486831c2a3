// reduce_scatter "reduce_scatterv": reduce the whole vector to rank 0, then scatterv the blocks. Origin: SimGrid
// 3.32's default reduce_scatter for regular counts.
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void reduce_scatter_reduce_scatterv(const CollectiveContext& c, const CollectiveCall& call)
{
  const double whole = coll::total(call.recv_counts);
  coll::Temp result(call, c.me == 0 ? whole : 0);
  CollectiveCall reduce = call;
  reduce.op = Collective::Reduce;
  reduce.root = 0;
  reduce.bytes = whole;
  reduce.recv_counts.clear();
  reduce.recv_data = result.data();
  c.library.run_part(c, reduce);
  CollectiveCall scatterv = call;
  scatterv.op = Collective::Scatterv;
  scatterv.root = 0;
  scatterv.send_counts = call.recv_counts;
  scatterv.recv_counts.clear();
  scatterv.recv_bytes = call.recv_counts[c.me];
  scatterv.send_data = result.data();
  c.library.run_part(c, scatterv);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "reduce_scatterv", "reduce to rank 0, then scatterv",
                                   "SimGrid 3.32 default reduce_scatter", reduce_scatter_reduce_scatterv});

} // namespace
} // namespace mpisim::mpi
