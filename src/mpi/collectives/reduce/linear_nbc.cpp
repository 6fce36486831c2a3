// reduce "linear_nbc": every rank sends its whole buffer to the root, which receives them all at once. A commutative
// operation is combined as SimGrid does, once all have arrived: starting from the root's own buffer, each other
// rank's in increasing rank order, as the left operand (acc = x_r op acc), so the sums round as smpirun's. SimGrid
// applies the same order to a non-commutative operation (its MPI_Ireduce; its blocking default reduce runs another
// algorithm for those), which is not MPI's: mpisim keeps MPI's order there, x0 op (x1 op (... op x(P-1))).
// Origin: SimGrid 3.32's non-blocking reduce, used by its default selector.
#include "mpi/collectives/building_blocks/linear_nbc.hpp"

namespace mpisim::mpi {
namespace {

void reduce_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  // The root keeps every contribution, its own included (in place, it is in recv_data, which gets overwritten).
  coll::Temp slots(call, c.me == call.root ? c.size * call.bytes : 0);
  auto slot = [&](int peer) { return slots.at(peer * call.bytes); };
  if (c.me == call.root)
    coll::copy(slot(c.me), call.send_data, call.bytes);
  linear::fan_in(
      c, call.root, [&](int) { return call.bytes; }, call.send_data, slot);
  if (c.me != call.root || not call.has_data())
    return;
  if (not call.commutative) {
    coll::copy(call.recv_data, slot(c.size - 1), call.bytes);
    for (int peer = c.size - 2; peer >= 0; --peer)
      coll::reduce(call, slot(peer), call.recv_data, call.bytes);
    return;
  }
  coll::copy(call.recv_data, slot(call.root), call.bytes);
  for (int peer = 0; peer < c.size; ++peer)
    if (peer != call.root)
      coll::reduce(call, slot(peer), call.recv_data, call.bytes);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "linear_nbc", "all send to the root at once",
                                   "SimGrid 3.32 ireduce (default selector)", reduce_linear});

} // namespace
} // namespace mpisim::mpi
