// barrier "ompi_basic_linear": every rank sends an empty message to rank 0 and waits for its reply; rank 0 collects
// them all, then answers them all. Origin: Open MPI's basic linear barrier; SimGrid 3.32's default barrier.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

void barrier_ompi_basic_linear(const CollectiveContext& c, const CollectiveCall&)
{
  const int tag = c.tag;
  if (c.me > 0) {
    c.rank.send(c.comm, 0, tag, 0);
    c.rank.recv(c.comm, 0, tag, 0);
    return;
  }
  std::vector<RequestPtr> requests;
  requests.reserve(c.size);
  for (int peer = 1; peer < c.size; ++peer)
    requests.push_back(c.rank.irecv(c.comm, peer, tag, 0));
  c.rank.waitall(requests);
  requests.clear();
  for (int peer = 1; peer < c.size; ++peer)
    requests.push_back(c.rank.isend(c.comm, peer, tag, 0));
  c.rank.waitall(requests);
}

const RegisterAlgorithm kRegister({Collective::Barrier, "ompi_basic_linear", "fan-in to rank 0, then fan-out",
                                   "Open MPI coll/basic linear barrier", barrier_ompi_basic_linear});

} // namespace
} // namespace mpisim::mpi
