// gather "ompi_basic_linear": every rank sends its block to the root with a blocking send; the root receives them one
// after the other, in rank order. Origin: Open MPI's coll/basic linear gather, as SimGrid 3.32 runs it
// (gather__ompi_basic_linear); also the inter-leader step of MVAPICH2's two-level gather.
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void gather_ompi_basic_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.me != call.root) {
    c.rank.send(c.comm, call.root, c.tag, call.bytes, call.send_data);
    return;
  }
  for (int peer = 0; peer < c.size; ++peer) {
    std::byte* slot = coll::at(call.recv_data, peer * call.recv_bytes);
    if (peer == c.me)
      coll::copy(slot, call.send_data, call.recv_bytes);
    else
      c.rank.recv(c.comm, peer, c.tag, call.recv_bytes, slot);
  }
}

const RegisterAlgorithm kRegister({Collective::Gather, "ompi_basic_linear", "blocking sends, received in rank order",
                                   "Open MPI coll/basic linear gather", gather_ompi_basic_linear});

} // namespace
} // namespace mpisim::mpi
