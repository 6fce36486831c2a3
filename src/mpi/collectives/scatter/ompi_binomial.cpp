// scatter "ompi_binomial": Open MPI's in-order binomial tree (see ompi_trees.hpp). The root (after
// rotating its blocks into relative-rank order unless it is rank 0) sends each child the blocks of the child's
// subtree, smallest subtree first, with blocking sends; a rank with children (even relative rank) receives its
// subtree's blocks, keeps the first and forwards the others the same way; a leaf receives its block. Ranks with
// children post their receive for P blocks (SimGrid's buffer; the message is the sender's size). Origin: Open MPI
// coll/tuned scatter_intra_binomial, as SimGrid 3.32 runs it (scatter__ompi_binomial; also SimGrid's scatter__mpich
// and the steps of MVAPICH2's two-level scatters).
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/building_blocks/ompi_trees.hpp"

namespace mpisim::mpi {
namespace {

void scatter_ompi_binomial(const CollectiveContext& c, const CollectiveCall& call)
{
  const ompi::Viewpoint at{.size = c.size, .rank = c.me, .root = call.root};
  const ompi::Tree tree = ompi::in_order_binomial_tree(at, ompi::RootParent::None);
  const bool root = c.me == call.root;
  if (at.shifted() % 2 == 1) {
    c.rank.recv(c.comm, tree.parent, c.tag, call.recv_bytes, call.recv_data);
    return;
  }
  const double block = root ? call.bytes : call.recv_bytes;
  // The blocks of this rank's subtree in relative-rank order (the root's own buffer when it is rank 0).
  coll::Temp scratch(call, root && c.me == 0 ? 0 : c.size * block);
  const std::byte* run = root && c.me == 0 ? call.send_data : scratch.data();
  if (root && c.me != 0 && call.has_data()) {
    const double tail = (c.size - c.me) * block;
    coll::copy(scratch.data(), coll::at(call.send_data, c.me * block), tail);
    coll::copy(scratch.at(tail), call.send_data, c.me * block);
  }
  if (not root)
    c.rank.recv(c.comm, tree.parent, c.tag, c.size * call.recv_bytes, scratch.data());
  coll::copy(call.recv_data, run, call.recv_bytes);
  double sent = block;
  for (int child : tree.children) {
    const double bytes = ompi::in_order_binomial_subtree_size(at, child) * block;
    c.rank.send(c.comm, child, c.tag, bytes, coll::at(run, sent));
    sent += bytes;
  }
}

const RegisterAlgorithm kRegister({Collective::Scatter, "ompi_binomial", "in-order binomial tree, blocking",
                                   "Open MPI coll/tuned binomial scatter", scatter_ompi_binomial});

} // namespace
} // namespace mpisim::mpi
