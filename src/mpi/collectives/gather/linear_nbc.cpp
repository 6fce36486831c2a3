// gather and gatherv "linear_nbc": every rank sends its block to the root, which receives them all at once. Origin:
// SimGrid 3.32's non-blocking gather(v), used by its default selector.
#include "mpi/collectives/building_blocks/linear_nbc.hpp"

namespace mpisim::mpi {
namespace {

void gather_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  const double bytes = c.me == call.root ? call.recv_bytes : call.bytes;
  auto slot = [&](int peer) { return coll::at(call.recv_data, peer * call.recv_bytes); };
  if (c.me == call.root)
    coll::copy(slot(c.me), call.send_data, call.recv_bytes);
  linear::fan_in(
      c, call.root, [&](int) { return bytes; }, call.send_data, slot);
}

void gatherv_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  std::vector<double> displs;
  if (c.me == call.root)
    displs = coll::displacements(call.recv_counts, call.recv_displs);
  auto slot = [&](int peer) { return coll::at(call.recv_data, displs[peer]); };
  if (c.me == call.root)
    coll::copy(slot(c.me), call.send_data, call.recv_counts[c.me]);
  linear::fan_in(
      c, call.root, [&](int peer) { return c.me == call.root ? call.recv_counts[peer] : call.bytes; }, call.send_data,
      slot);
}

const RegisterAlgorithm kGather({Collective::Gather, "linear_nbc", "all send to the root at once",
                                 "SimGrid 3.32 igather (default selector)", gather_linear});
const RegisterAlgorithm kGatherv({Collective::Gatherv, "linear_nbc", "all send to the root at once",
                                  "SimGrid 3.32 igatherv", gatherv_linear});

} // namespace
} // namespace mpisim::mpi
