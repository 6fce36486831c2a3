// allreduce "smp_binomial": binomial reduce inside each node onto its first rank, binomial reduce between those
// leaders onto rank 0, binomial broadcast back between leaders, then inside each node (see smp_two_level.hpp for the
// numbering of nodes and cores). Origin: Patarasuk's SMP allreduce, as SimGrid 3.32's allreduce__smp_binomial
// (SimGrid's reductions are out of order for non-commutative operations; here they keep rank order).
#include "mpi/collectives/allreduce/smp_two_level.hpp"

namespace mpisim::mpi {
namespace {

void allreduce_smp_binomial(const CollectiveContext& c, const CollectiveCall& call)
{
  const allreduce::Smp s(c);
  const double bytes = call.bytes;
  coll::Temp scratch(call, bytes);
  coll::copy(call.recv_data, call.send_data, bytes);
  allreduce::intra_reduce(c, call, s, call.recv_data, scratch.data(), bytes);
  if (s.core == 0) {
    allreduce::inter_reduce(c, call, s, call.recv_data, scratch.data(), bytes);
    allreduce::inter_bcast(c, s, call.recv_data, bytes);
  }
  allreduce::intra_bcast(c, s, call.recv_data, bytes);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "smp_binomial",
                                   "binomial reduce and broadcast inside nodes and between node leaders",
                                   "Patarasuk, SimGrid allreduce__smp_binomial", allreduce_smp_binomial});

} // namespace
} // namespace mpisim::mpi
