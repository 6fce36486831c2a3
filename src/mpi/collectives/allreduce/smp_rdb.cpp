// allreduce "smp_rdb": binomial reduce inside each node onto its first rank, recursive-doubling allreduce between
// those leaders (a non-power-of-two number of nodes folded as MPICH does: see fold_and_combine.hpp), binomial
// broadcast inside each node (see smp_two_level.hpp for the numbering). Origin: Patarasuk's SMP allreduce, as
// SimGrid 3.32's allreduce__smp_rdb (whose reductions are out of order for non-commutative operations; here they keep
// rank order).
#include "mpi/collectives/allreduce/fold_and_combine.hpp"
#include "mpi/collectives/allreduce/smp_two_level.hpp"

namespace mpisim::mpi {
namespace {

void leaders_rdb(const CollectiveContext& c, const CollectiveCall& call, const allreduce::Smp& s, std::byte* data,
                 std::byte* scratch, double bytes)
{
  const allreduce::Fold fold(s.node, s.nodes);
  const bool folded = s.node < 2 * fold.rem;
  if (folded && s.node % 2 == 0) {
    c.rank.send(c.comm, c.me + s.cores, c.tag, bytes, data);
  } else if (folded) {
    c.rank.recv(c.comm, c.me - s.cores, c.tag, bytes, scratch);
    coll::reduce(call, scratch, data, bytes);
  }
  if (fold.new_rank != -1) {
    for (int mask = 1; mask < fold.pof2; mask <<= 1) {
      const int dst = fold.real(fold.new_rank ^ mask) * s.cores;
      c.rank.sendrecv(c.comm, dst, c.tag, bytes, dst, c.tag, bytes, data, scratch);
      allreduce::combine(call, c.me, dst, scratch, data, bytes);
    }
  }
  if (folded && s.node % 2 == 1)
    c.rank.send(c.comm, c.me - s.cores, c.tag, bytes, data);
  else if (folded)
    c.rank.recv(c.comm, c.me + s.cores, c.tag, bytes, data);
}

void allreduce_smp_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  const allreduce::Smp s(c);
  const double bytes = call.bytes;
  coll::Temp scratch(call, bytes);
  coll::copy(call.recv_data, call.send_data, bytes);
  allreduce::intra_reduce(c, call, s, call.recv_data, scratch.data(), bytes);
  if (s.core == 0)
    leaders_rdb(c, call, s, call.recv_data, scratch.data(), bytes);
  allreduce::intra_bcast(c, s, call.recv_data, bytes);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "smp_rdb",
                                   "binomial reduce in nodes, recursive doubling between leaders, binomial broadcast",
                                   "Patarasuk, SimGrid allreduce__smp_rdb", allreduce_smp_rdb});

} // namespace
} // namespace mpisim::mpi
