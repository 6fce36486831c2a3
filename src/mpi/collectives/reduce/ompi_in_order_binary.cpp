// reduce "ompi_in_order_binary": the reduction runs unsegmented on the in-order binary tree rooted at rank P-1 (each
// subtree holds consecutive ranks, so non-commutative operations keep their order; see ompi_segmented_reduction.hpp);
// rank P-1 then sends the result to the root if that is another rank. Origin: Open MPI coll/tuned
// reduce_intra_in_order_binary, as SimGrid 3.32 reduce__ompi_in_order_binary.
#include "mpi/collectives/reduce/ompi_segmented_reduction.hpp"

namespace mpisim::mpi {
namespace {

void reduce_ompi_in_order_binary(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.bytes == 0)
    return;
  if (c.size == 1) {
    coll::copy(call.recv_data, call.send_data, call.bytes);
    return;
  }
  const int tree_root = c.size - 1;
  coll::Temp result(call, c.me == tree_root && tree_root != call.root ? call.bytes : 0);
  std::byte* out = tree_root == call.root ? call.recv_data : result.data();
  const double count = coll::elements(call, call.bytes);
  reduce_ompi::generic(c, call, ompi::in_order_binary_tree(c.size, c.me), count, out);
  if (tree_root == call.root)
    return;
  if (c.me == call.root)
    c.rank.recv(c.comm, tree_root, c.tag, call.bytes, call.recv_data);
  else if (c.me == tree_root)
    c.rank.send(c.comm, call.root, c.tag, call.bytes, out);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "ompi_in_order_binary",
                                   "unsegmented reduction on an in-order binary tree rooted at P-1",
                                   "Open MPI coll/tuned reduce_intra_in_order_binary", reduce_ompi_in_order_binary});

} // namespace
} // namespace mpisim::mpi
