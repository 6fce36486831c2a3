// allreduce "rab_rdb": Rabenseifner's allreduce. The ranks beyond the largest power of two fold their vector into
// their odd neighbour; the survivors reduce-scatter the vector by recursive halving (partners at distances 1, 2, 4,
// ...; the lower survivor's values on the left, so any operation keeps its order), then allgather the reduced blocks
// by recursive doubling (distances back down, each exchange doubling what a survivor holds), and the odd ranks give
// the result to the neighbours that sat out. Every message is sent, with 0 bytes for an empty vector.
// Origin: Rabenseifner, "Optimization of Collective Reduction Operations" (ICCS 2004), as MPICH's allreduce for long
// vectors and SimGrid 3.32's allreduce__rab_rdb. Behaviour: docs/specifications/recursive-collectives.md.
#include "mpi/collectives/building_blocks/recursive_halving.hpp"

#include <cmath>

namespace mpisim::mpi {
namespace {

using halving::BlockLayout;
using halving::Fold;
using halving::Split;

// Recursive doubling over the splits of the reduce-scatter, from the last: each survivor sends all the blocks it holds
// to its partner and receives the partner's, the other half of the run they split there.
void allgather_halves(const CollectiveContext& c, const Fold& fold, int v, const std::vector<Split>& splits,
                      const BlockLayout& layout, std::byte* vector)
{
  for (auto split = splits.rbegin(); split != splits.rend(); ++split) {
    const int peer = fold.rank_of(v ^ split->distance);
    c.rank.sendrecv(c.comm, peer, c.tag, layout.bytes(split->kept), peer, c.tag, layout.bytes(split->given),
                    coll::at(vector, layout.offset(split->kept)), coll::at(vector, layout.offset(split->given)));
  }
}

// The end of the fold: the survivor of each folded pair sends the whole result to the rank that sat out.
void unfold(const CollectiveContext& c, const Fold& fold, std::byte* vector, double bytes)
{
  if (not fold.paired(c.me))
    return;
  if (fold.goes_on(c.me))
    c.rank.send(c.comm, fold.pair_of(c.me), c.tag, bytes, vector);
  else
    c.rank.recv(c.comm, fold.pair_of(c.me), c.tag, bytes, vector);
}

void allreduce_rab_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  const Fold fold(c.size, Fold::Survivor::Odd);
  const double elements = std::round(coll::elements(call, call.bytes));
  const BlockLayout layout = BlockLayout::equal_split(elements, fold.survivors(), call.element_bytes);
  std::byte* vector = call.recv_data; // the work is done in the output (in place: it holds the input already)
  coll::copy(vector, call.send_data, call.bytes);
  coll::Temp incoming(call, call.bytes);
  if (halving::fold_in(c, call, fold, vector, incoming.data(), call.bytes)) {
    const int v = fold.new_rank(c.me);
    const std::vector<Split> splits = halving::splits_of(v, fold.survivors(), halving::Distances::Doubling);
    halving::exchange_halves(c, call, fold, v, splits, layout, vector, incoming.data(), halving::Combine::RankOrder);
    allgather_halves(c, fold, v, splits, layout, vector);
  }
  unfold(c, fold, vector, call.bytes);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "rab_rdb",
                                   "recursive-halving reduce-scatter, recursive-doubling allgather",
                                   "Rabenseifner 2004 / MPICH, SimGrid allreduce__rab_rdb", allreduce_rab_rdb});

} // namespace
} // namespace mpisim::mpi
