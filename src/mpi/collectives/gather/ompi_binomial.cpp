// gather "ompi_binomial": Open MPI's in-order binomial tree (see ompi_trees.hpp). Each rank with children
// (even relative rank) receives its children's subtrees, smallest first, behind its own block, then sends the
// whole run to its parent; leaves send their block. The root, unless it is rank 0, gathers in relative-rank order
// and rotates the blocks into place. Origin: Open MPI coll/tuned gather_intra_binomial, as SimGrid 3.32 runs it
// (gather__ompi_binomial; also SimGrid's gather__mpich and the intra-node step of MVAPICH2's two-level gather).
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/building_blocks/ompi_trees.hpp"

namespace mpisim::mpi {
namespace {

void gather_ompi_binomial(const CollectiveContext& c, const CollectiveCall& call)
{
  const ompi::Viewpoint at{.size = c.size, .rank = c.me, .root = call.root};
  const ompi::Tree tree = ompi::in_order_binomial_tree(at, ompi::RootParent::None);
  const bool root = c.me == call.root;
  const double block = root ? call.recv_bytes : call.bytes;
  if (at.shifted() % 2 == 1) { // a leaf
    c.rank.send(c.comm, tree.parent, c.tag, block, call.send_data);
    return;
  }
  // This rank's block, then its children's subtrees: relative ranks [relative, P) at most. Rank 0 as the root
  // gathers straight into recv_data (relative and real ranks coincide).
  const bool into_result = root && c.me == 0;
  coll::Temp scratch(call, into_result ? 0 : (c.size - at.shifted()) * block);
  std::byte* run = into_result ? call.recv_data : scratch.data();
  coll::copy(run, call.send_data, block);
  double held = block;
  for (int child : tree.children) {
    const double bytes = ompi::in_order_binomial_subtree_size(at, child) * block;
    c.rank.recv(c.comm, child, c.tag, bytes, coll::at(run, held));
    held += bytes;
  }
  if (not root) {
    c.rank.send(c.comm, tree.parent, c.tag, held, run);
    return;
  }
  if (c.me != 0 && call.has_data()) {
    // Relative rank v is rank (v + root) mod P: rotate.
    const double tail = (c.size - c.me) * block;
    coll::copy(coll::at(call.recv_data, c.me * block), run, tail);
    coll::copy(call.recv_data, coll::at(run, tail), c.me * block);
  }
}

const RegisterAlgorithm kRegister({Collective::Gather, "ompi_binomial", "in-order binomial tree, blocking",
                                   "Open MPI coll/tuned binomial gather", gather_ompi_binomial});

} // namespace
} // namespace mpisim::mpi
