// reduce "scatter_gather": Rabenseifner's reduce. The ranks beyond the largest power of two fold their vector into
// their even neighbour; the survivors reduce-scatter the vector by recursive halving (partners at distances 1, 2, 4,
// ...), each ending with one fully reduced block, and gather the blocks to the root along a binomial tree (distances
// back down). The vector is padded with zeros to at least one element per rank, and the messages carry the padding.
// A root that sat out of the fold gets block 0 from survivor 0 and takes its place in the gather. Non-commutative
// operations run binomial; an empty buffer sends nothing.
// Origin: Rabenseifner, "Optimization of Collective Reduction Operations" (ICCS 2004), as MPICH's reduce for long
// vectors and SimGrid 3.32's reduce__scatter_gather. Behaviour: docs/specifications/recursive-collectives.md.
#include "mpi/collectives/building_blocks/recursive_halving.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

using halving::BlockLayout;
using halving::BlockRun;
using halving::Fold;
using halving::Split;

// Who plays which survivor number in the gather: the survivors of the fold, except that a root which sat out plays
// survivor 0 (whose block it was handed).
struct GatherCast {
  const Fold& fold;
  int root;
  bool root_sat_out;

  int rank_of(int v) const { return v == 0 && root_sat_out ? root : fold.rank_of(v); }
  int root_number() const { return root_sat_out ? 0 : fold.new_rank(root); }
};

// Binomial gather of the reduced blocks to the root, undoing the splits from the last: at each distance, of the two
// survivors v and v XOR distance, the one whose partner lies on the root's side (same bits above the distance) sends
// everything it holds and stops; the other receives the partner's blocks next to its own.
void gather_blocks(const CollectiveContext& c, const GatherCast& cast, int v, const std::vector<Split>& splits,
                   const BlockLayout& layout, std::byte* vector)
{
  const int root = cast.root_number();
  for (auto split = splits.rbegin(); split != splits.rend(); ++split) {
    const int partner = v ^ split->distance;
    const int peer = cast.rank_of(partner);
    if (partner / split->distance == root / split->distance) {
      c.rank.send(c.comm, peer, c.tag, layout.bytes(split->kept), coll::at(vector, layout.offset(split->kept)));
      return;
    }
    c.rank.recv(c.comm, peer, c.tag, layout.bytes(split->given), coll::at(vector, layout.offset(split->given)));
  }
}

void reduce_scatter_gather(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.bytes == 0)
    return;
  if (not call.commutative) {
    c.library.run_algorithm(c, "binomial", call);
    return;
  }
  const Fold fold(c.size, Fold::Survivor::Even);
  const double elements = std::max(coll::elements(call, call.bytes), static_cast<double>(c.size));
  const double padded_bytes = elements * call.element_bytes;
  const BlockLayout layout = BlockLayout::equal_split(elements, fold.survivors(), call.element_bytes);
  coll::Temp vector(call, padded_bytes); // zero-initialised: the padding
  coll::Temp incoming(call, padded_bytes);
  coll::copy(vector.data(), call.send_data, call.bytes);

  const GatherCast cast{fold, call.root, not fold.goes_on(call.root)};
  int v = -1; // my survivor number in the halving, then in the gather
  std::vector<Split> splits;
  if (halving::fold_in(c, call, fold, vector.data(), incoming.data(), padded_bytes)) {
    v = fold.new_rank(c.me);
    splits = halving::splits_of(v, fold.survivors(), halving::Distances::Doubling);
    halving::exchange_halves(c, call, fold, v, splits, layout, vector.data(), incoming.data(),
                             halving::Combine::PartnerOnLeft);
  }
  if (cast.root_sat_out) {
    const BlockRun first_block{0, 1};
    if (v == 0) {
      c.rank.send(c.comm, call.root, c.tag, layout.bytes(first_block), vector.data());
      return;
    }
    if (c.me == call.root) {
      c.rank.recv(c.comm, fold.rank_of(0), c.tag, layout.bytes(first_block), vector.data());
      v = 0;
      splits = halving::splits_of(v, fold.survivors(), halving::Distances::Doubling);
    }
  }
  if (v < 0)
    return;
  gather_blocks(c, cast, v, splits, layout, vector.data());
  if (c.me == call.root)
    coll::copy(call.recv_data, vector.data(), call.bytes);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "scatter_gather",
                                   "recursive-halving reduce-scatter then binomial gather (Rabenseifner)",
                                   "MPICH MPIR_Reduce_redscat_gather, as SimGrid 3.32", reduce_scatter_gather});

} // namespace
} // namespace mpisim::mpi
