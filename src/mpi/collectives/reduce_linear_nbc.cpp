// reduce "linear_nbc": every rank sends its whole buffer to the root, which receives them all at once and combines
// them. Origin: SimGrid 3.32's non-blocking reduce, used by its default selector for commutative operations.
#include "mpi/collectives/linear_nbc.hpp"

namespace mpisim::mpi {
namespace {

void reduce_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  linear::fan_in(c, call.root, collective_tag(Collective::Reduce), [&](int) { return call.bytes; });
}

const RegisterAlgorithm kRegister({Collective::Reduce, "linear_nbc", "all send to the root at once",
                                   "SimGrid 3.32 ireduce (default selector)", reduce_linear});

} // namespace
} // namespace mpisim::mpi
