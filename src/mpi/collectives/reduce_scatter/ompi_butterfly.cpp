// reduce_scatter "ompi_butterfly": the ranks beyond the largest power of two fold their whole input into their odd
// neighbour; the survivors then run a butterfly (partners at distances 1, 2, 4, ...), each exchanging the half of its
// blocks it gives up and reducing the half it keeps, with the lower survivor's values on the left so that any
// operation keeps its order. Halving from the low distance up leaves survivor v with survivor mirror(v)'s block (the
// bit-reversal of v), so the survivors finally swap results, and the odd ranks of the folded pairs forward their even
// neighbours' parts. One rank copies its block; empty vectors still send every message (with 0 bytes).
// Origin: Open MPI's coll/base reduce_scatter_intra_butterfly, as SimGrid 3.32. Behaviour:
// docs/specifications/recursive-collectives.md.
#include "mpi/collectives/building_blocks/recursive_halving.hpp"
#include "mpi/collectives/reduce_scatter/butterfly_mirror.hpp"

namespace mpisim::mpi {
namespace {

using halving::Fold;
using halving::Split;

int log2_of(int power_of_two)
{
  int bits = 0;
  while ((1 << bits) < power_of_two)
    ++bits;
  return bits;
}

// Survivor v holds the reduced block of its counterpart b = mirror(v), and b holds v's. The part of a folded pair's
// even rank goes to that rank first; then v and b swap parts (or v keeps its own when b = v).
void deliver(const CollectiveContext& c, const Fold& fold, int v, int bits, const std::vector<double>& counts,
             const std::vector<double>& displs, coll::Temp& result, std::byte* output)
{
  const int counterpart = butterfly::mirror(v, bits);
  if (counterpart < fold.extra()) {
    const int sat_out = 2 * counterpart;
    c.rank.send(c.comm, sat_out, c.tag, counts[sat_out], result.at(displs[sat_out]));
  }
  const int peer = fold.rank_of(counterpart);
  if (counterpart == v)
    coll::copy(output, result.at(displs[c.me]), counts[c.me]);
  else
    c.rank.sendrecv(c.comm, peer, c.tag, counts[peer], peer, c.tag, counts[c.me], result.at(displs[peer]), output);
}

void reduce_scatter_ompi_butterfly(const CollectiveContext& c, const CollectiveCall& call)
{
  const std::vector<double>& counts = call.recv_counts;
  if (c.size == 1) {
    coll::copy(call.recv_data, call.send_data, counts[0]);
    return;
  }
  const double total = coll::total(counts);
  const std::vector<double> displs = coll::displacements(counts, {});
  const Fold fold(c.size, Fold::Survivor::Odd);
  const int bits = log2_of(fold.survivors());
  coll::Temp result(call, total);
  coll::Temp incoming(call, total);
  coll::copy(result.data(), call.send_data, total);
  if (not halving::fold_in(c, call, fold, result.data(), incoming.data(), total)) {
    const int holder = fold.rank_of(butterfly::mirror(fold.new_rank(fold.pair_of(c.me)), bits));
    c.rank.recv(c.comm, holder, c.tag, counts[c.me], call.recv_data);
    return;
  }
  const int v = fold.new_rank(c.me);
  const std::vector<Split> splits = halving::splits_of(v, fold.survivors(), halving::Distances::Doubling);
  halving::exchange_halves(c, call, fold, v, splits, halving::folded_blocks(counts, fold), result.data(),
                           incoming.data(), halving::Combine::RankOrder);
  deliver(c, fold, v, bits, counts, displs, result, call.recv_data);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "ompi_butterfly",
                                   "butterfly after folding the ranks beyond a power of two",
                                   "Open MPI coll/base reduce_scatter_intra_butterfly", reduce_scatter_ompi_butterfly});

} // namespace
} // namespace mpisim::mpi
