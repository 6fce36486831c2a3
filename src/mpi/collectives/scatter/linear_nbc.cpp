// scatter and scatterv "linear_nbc": the root sends every rank its block, all at once. Origin: SimGrid 3.32's
// non-blocking scatter(v), used by its default selector.
#include "mpi/collectives/building_blocks/linear_nbc.hpp"

namespace mpisim::mpi {
namespace {

void scatter_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  const double bytes = c.me == call.root ? call.bytes : call.recv_bytes;
  auto slot = [&](int peer) { return coll::at(call.send_data, peer * call.bytes); };
  if (c.me == call.root)
    coll::copy(call.recv_data, slot(c.me), call.recv_bytes);
  linear::fan_out(
      c, call.root, [&](int) { return bytes; }, call.recv_data, slot);
}

void scatterv_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  std::vector<double> displs;
  if (c.me == call.root)
    displs = coll::displacements(call.send_counts, call.send_displs);
  auto slot = [&](int peer) { return coll::at(call.send_data, displs[peer]); };
  if (c.me == call.root)
    coll::copy(call.recv_data, slot(c.me), call.recv_bytes);
  linear::fan_out(
      c, call.root, [&](int peer) { return c.me == call.root ? call.send_counts[peer] : call.recv_bytes; },
      call.recv_data, slot);
}

const RegisterAlgorithm kScatter({Collective::Scatter, "linear_nbc", "the root sends to all at once",
                                  "SimGrid 3.32 iscatter (default selector)", scatter_linear});
const RegisterAlgorithm kScatterv({Collective::Scatterv, "linear_nbc", "the root sends to all at once",
                                   "SimGrid 3.32 iscatterv", scatterv_linear});

} // namespace
} // namespace mpisim::mpi
