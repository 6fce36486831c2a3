// gather "ompi_binomial": Open MPI's in-order binomial tree (see gather_scatter_trees.hpp). Each rank with children
// (even relative rank) receives its children's subtrees, smallest first, behind its own block, then sends the
// whole run to its parent; leaves send their block. The root, unless it is rank 0, gathers in relative-rank order
// and rotates the blocks into place. Origin: Open MPI coll/tuned gather_intra_binomial, as SimGrid 3.32 runs it
// (gather__ompi_binomial; also SimGrid's gather__mpich and the intra-node step of MVAPICH2's two-level gather).
#include "mpi/collectives/gather_scatter_trees.hpp"

namespace mpisim::mpi {
namespace {

void gather_ompi_binomial(const CollectiveContext& c, const CollectiveCall& call)
{
  const trees::InOrderBinomialTree tree = trees::in_order_binomial_tree(c.me, call.root, c.size);
  const bool root = c.me == call.root;
  const double block = root ? call.recv_bytes : call.bytes;
  const bool gathers = tree.relative % 2 == 0; // ranks with children (and the last even rank, which has none)
  // Blocks in relative-rank order from this rank's own; rank 0 as root gathers straight into recv_data.
  coll::Temp scratch(call, gathers && not(root && c.me == 0) ? (root ? c.size : c.size - tree.relative) * block : 0);
  std::byte* run = root && c.me == 0 ? call.recv_data : scratch.data();
  const std::byte* outgoing = call.send_data;
  if (gathers) {
    coll::copy(run, call.send_data, block);
    double held = block;
    for (size_t i = 0; i < tree.children.size(); ++i) {
      const double bytes = tree.blocks[i] * block;
      c.rank.recv(c.comm, tree.children[i], c.tag, bytes, coll::at(run, held));
      held += bytes;
    }
    outgoing = run;
    if (not root)
      c.rank.send(c.comm, tree.parent, c.tag, held, outgoing);
  } else {
    c.rank.send(c.comm, tree.parent, c.tag, block, outgoing);
  }
  if (root && c.me != 0 && call.has_data()) {
    // Relative rank v is rank (v + root) mod P.
    const double tail = (c.size - c.me) * block;
    coll::copy(coll::at(call.recv_data, c.me * block), run, tail);
    coll::copy(call.recv_data, coll::at(run, tail), c.me * block);
  }
}

const RegisterAlgorithm kRegister({Collective::Gather, "ompi_binomial", "in-order binomial tree, blocking",
                                   "Open MPI coll/tuned binomial gather", gather_ompi_binomial});

} // namespace
} // namespace mpisim::mpi
