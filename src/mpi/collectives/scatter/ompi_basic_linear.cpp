// scatter "ompi_basic_linear": the root sends each other rank its block with a blocking send, in rank order; the
// others receive. Origin: Open MPI's coll/basic linear scatter, as SimGrid 3.32 runs it (scatter__ompi_basic_linear;
// also MVAPICH2's direct scatter in its two-level scatters).
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void scatter_ompi_basic_linear(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.me != call.root) {
    c.rank.recv(c.comm, call.root, c.tag, call.recv_bytes, call.recv_data);
    return;
  }
  for (int peer = 0; peer < c.size; ++peer) {
    const std::byte* slot = coll::at(call.send_data, peer * call.bytes);
    if (peer == c.me)
      coll::copy(call.recv_data, slot, call.bytes);
    else
      c.rank.send(c.comm, peer, c.tag, call.bytes, slot);
  }
}

const RegisterAlgorithm kRegister({Collective::Scatter, "ompi_basic_linear",
                                   "blocking sends from the root, in rank order", "Open MPI coll/basic linear scatter",
                                   scatter_ompi_basic_linear});

} // namespace
} // namespace mpisim::mpi
