// scatter "ompi_linear_nb": the root starts a non-blocking send to each other rank, in rank order, then waits for
// them all; the others receive with a blocking receive. Origin: Open MPI coll/tuned scatter_intra_linear_nb, as
// SimGrid 3.32 runs it (scatter__ompi_linear_nb: without Open MPI's periodic blocking send).
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void scatter_ompi_linear_nb(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.me != call.root) {
    c.rank.recv(c.comm, call.root, c.tag, call.recv_bytes, call.recv_data);
    return;
  }
  std::vector<RequestPtr> sends;
  sends.reserve(c.size);
  for (int peer = 0; peer < c.size; ++peer) {
    const std::byte* slot = coll::at(call.send_data, peer * call.bytes);
    if (peer == c.me)
      coll::copy(call.recv_data, slot, call.bytes);
    else
      sends.push_back(c.rank.isend(c.comm, peer, c.tag, call.bytes, slot));
  }
  c.rank.waitall(sends);
}

const RegisterAlgorithm kRegister({Collective::Scatter, "ompi_linear_nb", "non-blocking sends from the root",
                                   "Open MPI coll/tuned linear non-blocking scatter", scatter_ompi_linear_nb});

} // namespace
} // namespace mpisim::mpi
