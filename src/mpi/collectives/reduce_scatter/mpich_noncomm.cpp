// reduce_scatter "mpich_noncomm": recursive halving for power-of-two communicators and equal blocks. The blocks are
// first laid out in mirror-permuted order; at step k each rank exchanges half of its current range with rank ^ 2^k
// (the lower rank keeps the lower half) and folds in the partner's copy, keeping the lower ranks' values on the left,
// so non-commutative operations keep their order. Origin: MPICH's reduce_scatter for non-commutative operations, as
// SimGrid 3.32 reduce_scatter__mpich_noncomm, which aborts on other sizes or unequal blocks: those run mpich_pair.
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/reduce_scatter/butterfly_mirror.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

void reduce_scatter_mpich_noncomm(const CollectiveContext& c, const CollectiveCall& call)
{
  const std::vector<double>& counts = call.recv_counts;
  const bool power_of_two = (c.size & (c.size - 1)) == 0;
  const bool equal = std::all_of(counts.begin(), counts.end(), [&](double n) { return n == counts[0]; });
  if (not power_of_two || not equal) {
    c.library.run_algorithm(c, "mpich_pair", call);
    return;
  }
  int bits = 0;
  while ((1 << bits) < c.size)
    ++bits;
  const double block = counts[0];
  coll::Temp result(call, block * c.size);
  coll::Temp incoming(call, block * c.size);
  for (int i = 0; i < c.size; ++i)
    coll::copy(result.at(butterfly::mirror(i, bits) * block), coll::at(call.send_data, i * block), block);
  double send_offset = 0;
  double recv_offset = 0;
  double size = block * c.size;
  for (int k = 0; k < bits; ++k) {
    const int peer = c.me ^ (1 << k);
    size /= 2;
    if (c.me > peer)
      recv_offset += size;
    else
      send_offset += size;
    c.rank.sendrecv(c.comm, peer, c.tag, size, peer, c.tag, size, result.at(send_offset), incoming.at(recv_offset));
    if (c.me > peer)
      coll::reduce(call, incoming.at(recv_offset), result.at(recv_offset), size);
    else
      coll::reduce_left(call, result.at(recv_offset), incoming.at(recv_offset), size);
    send_offset = recv_offset;
  }
  coll::copy(call.recv_data, result.at(recv_offset), block);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "mpich_noncomm",
                                   "recursive halving on mirror-permuted blocks (power of two, equal blocks)",
                                   "MPICH reduce_scatter, non-commutative case", reduce_scatter_mpich_noncomm});

} // namespace
} // namespace mpisim::mpi
