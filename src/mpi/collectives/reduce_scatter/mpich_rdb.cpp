// reduce_scatter "mpich_rdb": the recursive-doubling schedule (recursive_doubling.hpp) run on what a group does NOT
// own. Each rank keeps a whole partial vector (initially its input); at level i it sends the part outside its group's
// blocks to rank XOR 2^i and gets the part outside the partner group's blocks, which it combines in rank order, so a
// group's ranks end each level with the group's reduction over every block outside the group. When the partner group is
// cut by P, the ranks that got its data pass it on unchanged, and only then combine it. After the last level, block
// `me` has been reduced over every rank. No fallback and no early return: the rank order of the combinations keeps
// non-commutative operations right, and a 0-byte vector sends the whole schedule empty. Origin: MPICH's
// recursive-doubling reduce_scatter (Thakur et al. 2005), as SimGrid's "mpich_rdb".
#include "mpi/collectives/building_blocks/recursive_doubling.hpp"

namespace mpisim::mpi {
namespace {

using recursive_doubling::BlockRange;
using recursive_doubling::Move;

// The bytes of the vector outside the blocks of a range: [0, head) and [tail_offset, end), moved packed one after the
// other.
struct Outside {
  double head;
  double tail_offset;
  double end;

  double tail() const { return end - tail_offset; }
  double bytes() const { return head + tail(); }
};

// This rank's N-byte partial vector (blocks packed in rank order), with the scratch buffers of the part it sends and
// of the part it receives.
class PartialVector {
public:
  PartialVector(const CollectiveCall& call, std::vector<double> counts)
      : call_(call), blocks_(recursive_doubling::BlockLayout::packed(std::move(counts), nullptr)),
        end_(coll::total(blocks_.sizes)), partial_(call, end_), outgoing_(call, end_), incoming_(call, end_)
  {
    blocks_.base = partial_.data();
    coll::copy(partial_.data(), call.send_data, end_);
  }
  PartialVector(const PartialVector&) = delete; // blocks_ points into partial_
  PartialVector& operator=(const PartialVector&) = delete;

  Outside outside(BlockRange range) const { return {offset_of(range.first), offset_of(range.last), end_}; }

  // Packs the part outside `range` for sending.
  const std::byte* pack_outside(BlockRange range)
  {
    const Outside part = outside(range);
    coll::copy(outgoing_.data(), partial_.data(), part.head);
    coll::copy(outgoing_.at(part.head), partial_.at(part.tail_offset), part.tail());
    return outgoing_.data();
  }

  // What the last exchange or pass-on brought in, and what a pass-on sends on unchanged.
  std::byte* incoming() { return incoming_.data(); }

  // Combines the incoming part outside `range` into the partial vector: the contribution of lower ranks goes on
  // the left.
  void combine_outside(BlockRange range, bool from_lower_ranks)
  {
    const Outside part = outside(range);
    combine(incoming_.data(), partial_.data(), part.head, from_lower_ranks);
    combine(incoming_.at(part.head), partial_.at(part.tail_offset), part.tail(), from_lower_ranks);
  }

  const std::byte* block(int b) const { return blocks_.block(b); }

private:
  // Where block b starts; block P starts at the end.
  double offset_of(int b) const { return b < static_cast<int>(blocks_.offsets.size()) ? blocks_.offsets[b] : end_; }

  void combine(std::byte* in, std::byte* accumulated, double bytes, bool from_lower_ranks) const
  {
    if (from_lower_ranks)
      coll::reduce(call_, in, accumulated, bytes);
    else
      coll::reduce_left(call_, accumulated, in, bytes);
  }

  const CollectiveCall& call_;
  recursive_doubling::BlockLayout blocks_;
  double end_;
  coll::Temp partial_, outgoing_, incoming_;
};

void reduce_scatter_mpich_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  PartialVector partial(call, call.recv_counts);
  // Data received during a level is combined once the level's pass-on is over: what is passed on is the partner
  // group's data, not our sum.
  BlockRange pending;
  auto combine_pending = [&] {
    if (not pending.empty())
      partial.combine_outside(pending, pending.first < c.me);
    pending = {};
  };
  int level = 0;
  for (const recursive_doubling::Step& step : recursive_doubling::schedule(c.size, c.me)) {
    if (step.level != level)
      combine_pending();
    level = step.level;
    switch (step.move) {
    case Move::Exchange:
      c.rank.sendrecv(c.comm, step.peer, c.tag, partial.outside(step.sent).bytes(), step.peer, c.tag,
                      partial.outside(step.received).bytes(), partial.pack_outside(step.sent), partial.incoming());
      pending = step.received;
      break;
    case Move::Send:
      c.rank.send(c.comm, step.peer, c.tag, partial.outside(step.sent).bytes(), partial.incoming());
      break;
    case Move::Receive:
      c.rank.recv(c.comm, step.peer, c.tag, partial.outside(step.received).bytes(), partial.incoming());
      pending = step.received;
      break;
    }
  }
  combine_pending();
  coll::copy(call.recv_data, partial.block(c.me), call.recv_counts[c.me]);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "mpich_rdb", "recursive doubling",
                                   "MPICH reduce_scatter, recursive doubling (Thakur et al. 2005)",
                                   reduce_scatter_mpich_rdb});

} // namespace
} // namespace mpisim::mpi
