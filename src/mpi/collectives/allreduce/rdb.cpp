// allreduce "rdb": recursive doubling. Every rank exchanges its whole current vector with rank XOR 2^k at step k and
// combines the two. A non-power-of-two size is first folded onto the largest power of two below it (the even ranks
// among the first 2 * (P - pof2) give their vector to the odd rank above and get the result back at the end).
// Origin: MPICH's recursive-doubling allreduce (Thakur et al. 2005), as SimGrid 3.32's allreduce__rdb. SimGrid
// combines in rank order (correct for non-commutative operations) and, when the partner is above, copies the result
// with a sendrecv to itself, a local copy that sends nothing.
#include "mpi/collectives/allreduce/fold_and_combine.hpp"

namespace mpisim::mpi {
namespace {

void allreduce_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  const double bytes = call.bytes;
  coll::Temp scratch(call, bytes);
  coll::copy(call.recv_data, call.send_data, bytes);
  const allreduce::Fold fold(c.me, c.size);
  allreduce::fold_in(c, call, fold, call.recv_data, scratch.data(), bytes);
  if (fold.new_rank != -1) {
    for (int mask = 1; mask < fold.pof2; mask <<= 1) {
      const int dst = fold.real(fold.new_rank ^ mask);
      c.rank.sendrecv(c.comm, dst, c.tag, bytes, dst, c.tag, bytes, call.recv_data, scratch.data());
      allreduce::combine(call, c.me, dst, scratch.data(), call.recv_data, bytes);
    }
  }
  allreduce::fold_out(c, fold, call.recv_data, bytes);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "rdb", "recursive doubling",
                                   "MPICH (Thakur et al. 2005), SimGrid allreduce__rdb", allreduce_rdb});

} // namespace
} // namespace mpisim::mpi
