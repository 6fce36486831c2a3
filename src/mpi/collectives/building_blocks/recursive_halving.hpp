// Shared by the algorithms that fold a communicator onto a power of two of ranks and then split a vector of blocks
// between them, halving each rank's share at every step (reduce scatter_gather, reduce_scatter
// ompi_basic_recursivehalving and ompi_butterfly, allreduce rab_rdb): who goes on under which number, the byte extent
// of a run of blocks, the sequence of halves a rank keeps, and the exchange of halves with partial reduction.
// The rules are those of docs/specifications/recursive-collectives.md.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mpisim::mpi::halving {

inline int largest_power_of_two_at_most(int n)
{
  int power = 1;
  while (2 * power <= n)
    power *= 2;
  return power;
}

// P ranks brought down to the largest power of two: the first 2·extra ranks pair up as (2k, 2k+1), one of each pair
// hands its vector to the other and sits out, and the ranks that go on are renumbered 0 .. survivors-1 in rank order
// (so a non-commutative operation keeps its order when the even rank is the one that sits out).
class Fold {
public:
  enum class Survivor { Even, Odd }; // which rank of each pair goes on

  Fold(int size, Survivor survivor)
      : survivors_(largest_power_of_two_at_most(size)), extra_(size - survivors_), survivor_(survivor)
  {
  }

  int survivors() const { return survivors_; }
  int extra() const { return extra_; }
  bool paired(int rank) const { return rank < 2 * extra_; }
  bool goes_on(int rank) const { return not paired(rank) || (rank % 2 == 1) == (survivor_ == Survivor::Odd); }
  // The other rank of a paired rank's pair.
  int pair_of(int rank) const { return rank ^ 1; }
  // The number of a rank that goes on, among the survivors.
  int new_rank(int rank) const { return paired(rank) ? rank / 2 : rank - extra_; }
  // The rank that goes on under number `v`.
  int rank_of(int v) const
  {
    if (v >= extra_)
      return v + extra_;
    return survivor_ == Survivor::Odd ? 2 * v + 1 : 2 * v;
  }

private:
  int survivors_;
  int extra_;
  Survivor survivor_;
};

// The fold itself: the rank of each pair that sits out sends its whole vector (`bytes`) to the other, which reduces it
// into its own with the received vector on the left (`incoming` is scratch of `bytes`). Returns whether this rank goes
// on.
inline bool fold_in(const CollectiveContext& c, const CollectiveCall& call, const Fold& fold, std::byte* vector,
                    std::byte* incoming, double bytes)
{
  if (not fold.paired(c.me))
    return true;
  if (not fold.goes_on(c.me)) {
    c.rank.send(c.comm, fold.pair_of(c.me), c.tag, bytes, vector);
    return false;
  }
  c.rank.recv(c.comm, fold.pair_of(c.me), c.tag, bytes, incoming);
  coll::reduce(call, incoming, vector, bytes);
  return true;
}

// Consecutive blocks [first, first + count).
struct BlockRun {
  int first = 0;
  int count = 0;

  BlockRun lower_half() const { return {first, count / 2}; }
  BlockRun upper_half() const { return {first + count / 2, count - count / 2}; }
};

// Where the blocks of a vector lie: block k is the bytes [start[k], start[k+1]).
class BlockLayout {
public:
  // Blocks of the given byte sizes, one after the other from byte 0.
  static BlockLayout of_sizes(const std::vector<double>& sizes)
  {
    std::vector<double> starts(1, 0.0);
    for (double size : sizes)
      starts.push_back(starts.back() + size);
    return BlockLayout(std::move(starts));
  }
  // `blocks` blocks of ⌊elements / blocks⌋ elements each but the last, which takes the rest.
  static BlockLayout equal_split(double elements, int blocks, double element_bytes)
  {
    const double per_block = std::floor(elements / blocks);
    std::vector<double> sizes(blocks, per_block * element_bytes);
    sizes.back() = (elements - (blocks - 1) * per_block) * element_bytes;
    return of_sizes(sizes);
  }

  int blocks() const { return static_cast<int>(starts_.size()) - 1; }
  BlockRun all() const { return {0, blocks()}; }
  double offset(BlockRun run) const { return starts_[run.first]; }
  double bytes(BlockRun run) const { return starts_[run.first + run.count] - starts_[run.first]; }

private:
  explicit BlockLayout(std::vector<double> starts) : starts_(std::move(starts)) {}
  std::vector<double> starts_;
};

// The blocks of a reduce_scatter's vector as the survivors of the fold split them: survivor k's block is the blocks
// of ranks 2k and 2k+1 for a folded pair, rank k + extra's otherwise (contiguous, the caller's layout unchanged).
inline BlockLayout folded_blocks(const std::vector<double>& counts, const Fold& fold)
{
  std::vector<double> sizes;
  sizes.reserve(static_cast<size_t>(fold.survivors()));
  for (size_t k = 0; k < static_cast<size_t>(fold.survivors()); ++k) {
    const size_t extra = static_cast<size_t>(fold.extra());
    sizes.push_back(k < extra ? counts[2 * k] + counts[2 * k + 1] : counts[k + extra]);
  }
  return BlockLayout::of_sizes(sizes);
}

// One step of the halving of a rank's run of blocks: with the survivor `v XOR distance` it splits `whole`; v keeps
// the lower half when the distance bit of v is clear, the upper half otherwise, and the partner keeps the other.
struct Split {
  int distance;
  BlockRun whole;
  BlockRun kept;
  BlockRun given;
};

enum class Distances { Doubling, Halving }; // 1, 2, 4, ... or survivors/2, ..., 1

// The splits survivor v goes through, starting from all `blocks` blocks (a power of two): after the last one v keeps
// one block (distances doubling: block mirror(v); halving: block v).
inline std::vector<Split> splits_of(int v, int blocks, Distances order)
{
  std::vector<int> distances;
  for (int distance = 1; distance < blocks; distance *= 2)
    distances.push_back(distance);
  if (order == Distances::Halving)
    std::reverse(distances.begin(), distances.end());
  std::vector<Split> splits;
  BlockRun run{0, blocks};
  for (int distance : distances) {
    const bool keeps_lower = (v & distance) == 0;
    const BlockRun kept = keeps_lower ? run.lower_half() : run.upper_half();
    const BlockRun given = keeps_lower ? run.upper_half() : run.lower_half();
    splits.push_back({distance, run, kept, given});
    run = kept;
  }
  return splits;
}

// How a received partial result joins the kept one.
enum class Combine {
  PartnerOnLeft, // kept ← in ⊕ kept, whoever the partner is
  RankOrder,     // the lower survivor's value on the left (non-commutative operations stay right)
};

// The reduce-scatter part: survivor v exchanges, split after split, the half it gives for the half it keeps with
// survivor v XOR distance, and reduces what it receives into `vector` (laid out as `layout`; `incoming` is scratch of
// the same size). Afterwards v's last kept block holds the reduction over all survivors.
inline void exchange_halves(const CollectiveContext& c, const CollectiveCall& call, const Fold& fold, int v,
                            const std::vector<Split>& splits, const BlockLayout& layout, std::byte* vector,
                            std::byte* incoming, Combine combine)
{
  for (const Split& split : splits) {
    const int partner = v ^ split.distance;
    const double kept_at = layout.offset(split.kept);
    const double kept_bytes = layout.bytes(split.kept);
    c.rank.sendrecv(c.comm, fold.rank_of(partner), c.tag, layout.bytes(split.given), fold.rank_of(partner), c.tag,
                    kept_bytes, coll::at(vector, layout.offset(split.given)), coll::at(incoming, kept_at));
    if (combine == Combine::RankOrder && v < partner)
      coll::reduce_left(call, coll::at(vector, kept_at), coll::at(incoming, kept_at), kept_bytes);
    else
      coll::reduce(call, coll::at(incoming, kept_at), coll::at(vector, kept_at), kept_bytes);
  }
}

} // namespace mpisim::mpi::halving
