// reduce_scatter "linear_nbc": every rank sends each other rank that rank's block of its vector and receives its own
// block from everyone, all at once, then combines the P contributions in rank order. Origin: SimGrid 3.32's
// non-blocking reduce_scatter (MPI_Ireduce_scatter).
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void reduce_scatter_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  const std::vector<double> displs = coll::displacements(call.recv_counts, {});
  const double mine = call.recv_counts[c.me];
  coll::Temp slots(call, c.size * mine); // slot p: rank p's part of my block
  auto slot = [&](int p) { return slots.at(p * mine); };
  coll::copy(slot(c.me), coll::at(call.send_data, displs[c.me]), mine);
  std::vector<RequestPtr> requests;
  requests.reserve(2 * static_cast<size_t>(c.size));
  for (int peer = 0; peer < c.size; ++peer) {
    if (peer == c.me)
      continue;
    requests.push_back(
        c.rank.isend(c.comm, peer, c.tag, call.recv_counts[peer], coll::at(call.send_data, displs[peer])));
    requests.push_back(c.rank.irecv(c.comm, peer, c.tag, mine, slot(peer)));
  }
  c.rank.waitall(requests);
  if (not call.has_data())
    return;
  coll::copy(call.recv_data, slot(c.size - 1), mine);
  for (int p = c.size - 2; p >= 0; --p)
    coll::reduce(call, slot(p), call.recv_data, mine);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "linear_nbc", "everyone sends each block at once",
                                   "SimGrid 3.32 ireduce_scatter", reduce_scatter_linear});

} // namespace
} // namespace mpisim::mpi
