// alltoall "basic_linear": post every receive (from rank+1 upwards, wrapping), then every send (from rank-1
// downwards, wrapping), then wait for all. Origin: Open MPI coll/basic linear alltoall.
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void alltoall_basic_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  const int tag = c.tag;
  coll::copy(coll::at(call.recv_data, c.me * call.recv_bytes), coll::at(call.send_data, c.me * call.bytes),
             call.recv_bytes);
  if (c.size < 2)
    return;
  std::vector<RequestPtr> requests;
  requests.reserve(2 * static_cast<size_t>(c.size - 1));
  for (int peer = (c.me + 1) % c.size; peer != c.me; peer = (peer + 1) % c.size)
    requests.push_back(
        c.rank.irecv(c.comm, peer, tag, call.recv_bytes, coll::at(call.recv_data, peer * call.recv_bytes)));
  for (int peer = (c.me + c.size - 1) % c.size; peer != c.me; peer = (peer + c.size - 1) % c.size)
    requests.push_back(c.rank.isend(c.comm, peer, tag, call.bytes, coll::at(call.send_data, peer * call.bytes)));
  c.rank.waitall(requests);
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "basic_linear", "all receives, then all sends, then wait",
                                   "Open MPI coll/basic linear alltoall", alltoall_basic_linear});

} // namespace
} // namespace mpisim::mpi
