// allreduce "smp_rsag_rab": binomial reduce inside each node onto its first rank (see smp_two_level.hpp), then between
// the node leaders Rabenseifner's exchanges: a reduce-scatter by recursive halving (mask = 1, 2, ...: the leader
// whose node has bit `mask` set keeps the upper half of its current range, halves of floor(current / 2) elements)
// and an allgather by recursive doubling in the reverse order (blocks of n / nodes elements, doubling), then a
// binomial broadcast inside each node.
// Origin: Patarasuk's SMP allreduce, as SimGrid 3.32's allreduce__smp_rsag_rab.
// Fallbacks: SimGrid refuses communicator sizes that are not a power of two: smp_rdb there. SimGrid leaves the
// elements beyond the halvings' truncations unreduced when n is not a multiple of the number of nodes; with data
// smp_rdb runs then (online only). Reductions keep rank order.
#include "mpi/collectives/allreduce/fold_and_combine.hpp"
#include "mpi/collectives/allreduce/smp_two_level.hpp"

namespace mpisim::mpi {
namespace {

void leaders_rab(const CollectiveContext& c, const CollectiveCall& call, const allreduce::Smp& s, std::byte* data,
                 std::byte* scratch)
{
  const double eb = call.element_bytes;
  const long n = allreduce::element_count(call);
  const int nodes = c.size / s.cores;
  const double chunk = eb * n / nodes; // bytes, as SimGrid's integer division on bytes
  long count = n / 2, base = 0;
  int mask = 1;
  for (; mask < nodes; mask *= 2, count /= 2) {
    const int dst = (s.node ^ mask) * s.cores;
    long recv_base = base, send_base = base + count;
    if (s.node & mask) {
      recv_base = base + count;
      send_base = base;
      base = recv_base;
    }
    c.rank.sendrecv(c.comm, dst, c.tag, count * eb, dst, c.tag, count * eb, coll::at(data, send_base * eb), scratch);
    allreduce::combine(call, c.me, dst, scratch, coll::at(data, recv_base * eb), count * eb);
  }
  long block = 0; // this leader's block, in chunks
  for (int bit = 1, size = nodes / 2; bit < nodes; bit <<= 1, size /= 2)
    if (s.node & bit)
      block += size;
  count *= 2;
  long step = 1;
  for (mask = nodes / 2; mask >= 1; mask >>= 1, count *= 2, step *= 2) {
    const int dst = (s.node ^ mask) * s.cores;
    const long send_block = block;
    long recv_block = block + step;
    if (s.node & mask) {
      recv_block = block - step;
      block -= step;
    }
    c.rank.sendrecv(c.comm, dst, c.tag, count * eb, dst, c.tag, count * eb,
                    coll::at(data, static_cast<double>(static_cast<long>(send_block * chunk))),
                    coll::at(data, static_cast<double>(static_cast<long>(recv_block * chunk))));
  }
}

void allreduce_smp_rsag_rab(const CollectiveContext& c, const CollectiveCall& call)
{
  const allreduce::Smp s(c);
  const long n = allreduce::element_count(call);
  const bool power_of_two = (c.size & (c.size - 1)) == 0;
  if (not power_of_two || (call.has_data() && n % (c.size / s.cores) != 0)) {
    c.library.run_algorithm(c, "smp_rdb", call);
    return;
  }
  const double bytes = call.bytes;
  coll::Temp scratch(call, bytes);
  coll::copy(call.recv_data, call.send_data, bytes);
  allreduce::intra_reduce(c, call, s, call.recv_data, scratch.data(), bytes);
  if (s.core == 0)
    leaders_rab(c, call, s, call.recv_data, scratch.data());
  allreduce::intra_bcast(c, s, call.recv_data, bytes);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "smp_rsag_rab",
                                   "binomial in nodes, recursive halving and doubling between node leaders",
                                   "Patarasuk, SimGrid allreduce__smp_rsag_rab", allreduce_smp_rsag_rab});

} // namespace
} // namespace mpisim::mpi
