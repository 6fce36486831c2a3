// reduce "binomial": a binomial tree rooted at the root (commutative operations) or at rank 0 (non-commutative ones,
// so that each subtree holds consecutive ranks), with blocking sends; at step k, a rank whose relative rank has bit k
// set sends its partial result to the rank without that bit and leaves. With a non-commutative operation and a
// root other than 0, rank 0 finally sends the result to the root. Nothing is sent for an empty buffer.
// Origin: MPICH's binomial reduce, as SimGrid 3.32's reduce binomial.
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void reduce_binomial(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.bytes == 0)
    return;
  const int tree_root = call.commutative ? call.root : 0;
  const int relative = (c.me - tree_root + c.size) % c.size;
  // The partial result of my subtree: relative ranks relative .. relative + 2^k - 1, lowest first.
  coll::Temp partial(call, call.bytes);
  coll::Temp incoming(call, call.bytes);
  coll::copy(partial.data(), call.send_data, call.bytes);
  for (int mask = 1; mask < c.size; mask <<= 1) {
    if ((relative & mask) != 0) {
      const int parent = ((relative & ~mask) + tree_root) % c.size;
      c.rank.send(c.comm, parent, c.tag, call.bytes, partial.data());
      break;
    }
    const int child = relative | mask;
    if (child < c.size) {
      c.rank.recv(c.comm, (child + tree_root) % c.size, c.tag, call.bytes, incoming.data());
      coll::reduce_left(call, partial.data(), incoming.data(), call.bytes);
    }
  }
  if (tree_root != call.root) {
    if (c.me == tree_root)
      c.rank.send(c.comm, call.root, c.tag, call.bytes, partial.data());
    else if (c.me == call.root)
      c.rank.recv(c.comm, tree_root, c.tag, call.bytes, call.recv_data);
    return;
  }
  if (c.me == call.root)
    coll::copy(call.recv_data, partial.data(), call.bytes);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "binomial", "binomial tree, blocking",
                                   "MPICH binomial reduce, as SimGrid 3.32", reduce_binomial});

} // namespace
} // namespace mpisim::mpi
