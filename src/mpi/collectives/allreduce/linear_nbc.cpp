// allreduce "linear_nbc": every rank sends its buffer to every other rank and receives theirs, all at once, then
// combines the P contributions in rank order. Origin: SimGrid 3.32's non-blocking allreduce (MPI_Iallreduce).
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void allreduce_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  coll::Temp slots(call, c.size * call.bytes); // slot p: rank p's buffer
  auto slot = [&](int p) { return slots.at(p * call.bytes); };
  coll::copy(slot(c.me), call.send_data, call.bytes);
  std::vector<RequestPtr> requests;
  requests.reserve(2 * static_cast<size_t>(c.size));
  for (int peer = 0; peer < c.size; ++peer) {
    if (peer == c.me)
      continue;
    requests.push_back(c.rank.isend(c.comm, peer, c.tag, call.bytes, call.send_data));
    requests.push_back(c.rank.irecv(c.comm, peer, c.tag, call.bytes, slot(peer)));
  }
  c.rank.waitall(requests);
  if (not call.has_data())
    return;
  coll::copy(call.recv_data, slot(c.size - 1), call.bytes);
  for (int p = c.size - 2; p >= 0; --p)
    coll::reduce(call, slot(p), call.recv_data, call.bytes);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "linear_nbc", "everyone sends to everyone at once",
                                   "SimGrid 3.32 iallreduce", allreduce_linear});

} // namespace
} // namespace mpisim::mpi
