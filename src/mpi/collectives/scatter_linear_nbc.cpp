// scatter and scatterv "linear_nbc": the root posts one send per rank, every other rank one receive, then all wait.
// Origin: SimGrid 3.32's non-blocking scatter, used by its default selector.
#include "mpi/collectives/linear_nbc.hpp"

namespace mpisim::mpi {
namespace {

void scatter_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  double bytes = c.me == call.root ? call.bytes : call.recv_bytes;
  linear::fan_out(c, call.root, collective_tag(Collective::Scatter), [&](int) { return bytes; });
}

void scatterv_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  linear::fan_out(c, call.root, collective_tag(Collective::Scatterv), [&](int peer) {
    return c.me == call.root ? call.send_counts[peer] : call.recv_bytes;
  });
}

const RegisterAlgorithm kScatter({Collective::Scatter, "linear_nbc", "the root sends to all at once",
                                  "SimGrid 3.32 iscatter (default selector)", scatter_linear});
const RegisterAlgorithm kScatterv({Collective::Scatterv, "linear_nbc", "the root sends to all at once",
                                   "SimGrid 3.32 iscatterv", scatterv_linear});

} // namespace
} // namespace mpisim::mpi
