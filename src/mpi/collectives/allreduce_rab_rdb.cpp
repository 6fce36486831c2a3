// allreduce "rab_rdb": Rabenseifner's algorithm with recursive vector halving and distance doubling. After folding a
// non-power-of-two size onto pof2 ranks (see allreduce_common.hpp), the vector is cut into pof2 blocks of
// floor(n / pof2) elements (the last one takes the rest). Reduce-scatter: at mask = 1, 2, ..., pof2/2 a rank sends
// the half of its current range its partner (new rank XOR mask) keeps and combines the half it keeps (the lower new
// rank keeps the lower half). Allgather: the same exchanges in reverse order, each rank sending what it has.
// Origin: Rabenseifner 2004 / MPICH, as SimGrid 3.32's allreduce__rab_rdb. SimGrid always combines the partner's
// data on the left, out of order for non-commutative operations when the partner is above; here the order is kept.
#include "mpi/collectives/allreduce_common.hpp"

#include <vector>

namespace mpisim::mpi {
namespace {

void allreduce_rab_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  const double bytes = call.bytes, eb = call.element_bytes;
  coll::Temp scratch(call, bytes);
  std::byte* vector = call.recv_data;
  coll::copy(vector, call.send_data, bytes);
  const allreduce::Fold fold(c.me, c.size);
  allreduce::fold_in(c, call, fold, vector, scratch.data(), bytes);
  if (fold.new_rank != -1) {
    const int pof2 = fold.pof2, me = fold.new_rank;
    const long n = allreduce::element_count(call);
    std::vector<long> displ(pof2 + 1);
    for (int i = 0; i <= pof2; ++i)
      displ[i] = i < pof2 ? i * (n / pof2) : n;
    auto range = [&](int from, int to) { return (displ[to] - displ[from]) * eb; };
    int send_index = 0, recv_index = 0, last_index = pof2;
    int mask = 1;
    for (; mask < pof2; mask <<= 1) {
      const int new_dst = me ^ mask, dst = fold.real(new_dst);
      double send_bytes = 0, recv_bytes = 0;
      if (me < new_dst) {
        send_index = recv_index + pof2 / (mask * 2);
        send_bytes = range(send_index, last_index);
        recv_bytes = range(recv_index, send_index);
      } else {
        recv_index = send_index + pof2 / (mask * 2);
        send_bytes = range(send_index, recv_index);
        recv_bytes = range(recv_index, last_index);
      }
      const double recv_at = displ[recv_index] * eb;
      c.rank.sendrecv(c.comm, dst, c.tag, send_bytes, dst, c.tag, recv_bytes, coll::at(vector, displ[send_index] * eb),
                      scratch.at(recv_at));
      allreduce::combine(call, c.me, dst, scratch.at(recv_at), coll::at(vector, recv_at), recv_bytes);
      send_index = recv_index;
      if (mask * 2 < pof2)
        last_index = recv_index + pof2 / (mask * 2);
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
      const int new_dst = me ^ mask, dst = fold.real(new_dst);
      double send_bytes = 0, recv_bytes = 0;
      if (me < new_dst) {
        if (mask != pof2 / 2)
          last_index += pof2 / (mask * 2);
        recv_index = send_index + pof2 / (mask * 2);
        send_bytes = range(send_index, recv_index);
        recv_bytes = range(recv_index, last_index);
      } else {
        recv_index = send_index - pof2 / (mask * 2);
        send_bytes = range(send_index, last_index);
        recv_bytes = range(recv_index, send_index);
      }
      c.rank.sendrecv(c.comm, dst, c.tag, send_bytes, dst, c.tag, recv_bytes,
                      coll::at(vector, displ[send_index] * eb), coll::at(vector, displ[recv_index] * eb));
      if (me > new_dst)
        send_index = recv_index;
    }
  }
  allreduce::fold_out(c, fold, vector, bytes);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "rab_rdb",
                                   "recursive-halving reduce-scatter, recursive-doubling allgather",
                                   "Rabenseifner 2004 / MPICH, SimGrid allreduce__rab_rdb", allreduce_rab_rdb});

} // namespace
} // namespace mpisim::mpi
