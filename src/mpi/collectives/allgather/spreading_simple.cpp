// allgather "spreading_simple": every rank posts receives from ranks me+1, me+2, ... then sends its block to ranks
// me+1, me+2, ..., and waits for all. Origin: Faraj and Yuan, ICS 2005 (SimGrid's "spreading_simple").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_spreading_simple(const CollectiveContext& c, const CollectiveCall& call)
{
  allgather::place_own(c, call);
  std::vector<RequestPtr> requests;
  for (int i = 1; i < c.size; ++i) {
    const int src = (c.me + i) % c.size;
    requests.push_back(c.rank.irecv(c.comm, src, c.tag, call.recv_bytes, allgather::slot(call, src)));
  }
  for (int i = 1; i < c.size; ++i)
    requests.push_back(c.rank.isend(c.comm, (c.me + i) % c.size, c.tag, call.bytes, call.send_data));
  c.rank.waitall(requests);
}

const RegisterAlgorithm kRegister({Collective::Allgather, "spreading_simple", "all receives, then all sends",
                                   "Faraj and Yuan, ICS 2005", allgather_spreading_simple});

} // namespace
} // namespace mpisim::mpi
