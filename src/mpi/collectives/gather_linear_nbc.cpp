// gather and gatherv "linear_nbc": every rank sends its block to the root, which posts one receive per rank, then
// all wait. Origin: SimGrid 3.32's non-blocking gather, used by its default selector.
#include "mpi/collectives/linear_nbc.hpp"

namespace mpisim::mpi {
namespace {

void gather_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  double bytes = c.me == call.root ? call.recv_bytes : call.bytes;
  linear::fan_in(c, call.root, collective_tag(Collective::Gather), [&](int) { return bytes; });
}

void gatherv_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  linear::fan_in(c, call.root, collective_tag(Collective::Gatherv), [&](int peer) {
    return c.me == call.root ? call.recv_counts[peer] : call.bytes;
  });
}

const RegisterAlgorithm kGather({Collective::Gather, "linear_nbc", "all send to the root at once",
                                 "SimGrid 3.32 igather (default selector)", gather_linear});
const RegisterAlgorithm kGatherv({Collective::Gatherv, "linear_nbc", "all send to the root at once",
                                  "SimGrid 3.32 igatherv", gatherv_linear});

} // namespace
} // namespace mpisim::mpi
