// allreduce "smp_binomial_pipeline": smp_binomial's four stages (binomial reduce in nodes, between node leaders,
// binomial broadcast between leaders, in nodes) pipelined over segments of min(4096, n) elements: at phase p, stage k
// works on segment p - k, for pipelength + 3 phases (pipelength = floor(n / segment)). See smp_two_level.hpp.
// Origin: Patarasuk's SMP allreduce, as SimGrid 3.32's allreduce__smp_binomial_pipeline (segment size 4096).
// SimGrid never processes the n mod segment trailing elements (its result there is wrong) and divides by zero for
// n = 0; with data the last segment here also carries those elements (longer last messages, online only), and n = 0
// sends nothing. Reductions keep rank order.
#include "mpi/collectives/allreduce/fold_and_combine.hpp"
#include "mpi/collectives/allreduce/smp_two_level.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

constexpr long kSegmentElements = 4096;

void allreduce_smp_binomial_pipeline(const CollectiveContext& c, const CollectiveCall& call)
{
  const long n = allreduce::element_count(call);
  coll::copy(call.recv_data, call.send_data, call.bytes);
  if (n == 0)
    return;
  const allreduce::Smp s(c);
  const double eb = call.element_bytes;
  const long segment = std::min(kSegmentElements, n);
  const long pipelength = n / segment;
  coll::Temp scratch(call, call.bytes);
  auto offset = [&](long index) { return index * segment * eb; };
  auto bytes_of = [&](long index) {
    const bool carries_tail = call.has_data() && index == pipelength - 1;
    return carries_tail ? call.bytes - offset(index) : segment * eb;
  };
  auto data = [&](long index) { return coll::at(call.recv_data, offset(index)); };
  for (long phase = 0; phase < pipelength + 3; ++phase) {
    if (phase < pipelength)
      allreduce::intra_reduce(c, call, s, data(phase), scratch.data(), bytes_of(phase));
    if (s.core == 0 && phase > 0 && phase < pipelength + 1)
      allreduce::inter_reduce(c, call, s, data(phase - 1), scratch.data(), bytes_of(phase - 1));
    if (s.core == 0 && phase > 1 && phase < pipelength + 2)
      allreduce::inter_bcast(c, s, data(phase - 2), bytes_of(phase - 2));
    if (phase > 2)
      allreduce::intra_bcast(c, s, data(phase - 3), bytes_of(phase - 3));
  }
}

const RegisterAlgorithm
    kRegister({Collective::Allreduce, "smp_binomial_pipeline", "smp_binomial pipelined over segments of 4096 elements",
               "Patarasuk, SimGrid allreduce__smp_binomial_pipeline", allreduce_smp_binomial_pipeline});

} // namespace
} // namespace mpisim::mpi
