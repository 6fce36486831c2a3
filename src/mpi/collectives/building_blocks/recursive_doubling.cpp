// The recursive-doubling schedule && its gathering run (see recursive_doubling.hpp).
#include "mpi/collectives/building_blocks/recursive_doubling.hpp"

#include <algorithm>
#include <numeric>

namespace mpisim::mpi::recursive_doubling {
namespace {

// The aligned group of `distance` ranks that holds `rank`, cut at `size` (empty when it starts beyond).
BlockRange group_of(int rank, int distance, int size)
{
  const int first = rank / distance * distance;
  return {std::min(first, size), std::min(first + distance, size)};
}

// The pass-on of the cut partner group's blocks `cut` inside our full group, after the exchange of level `level`.
// Only the first `holders` ranks of our group (one per rank of the cut group) received them. At sub-step j the
// group splits into aligned halves of h = 2^(level - j) ranks; a rank at offset u of its pair of halves sends to
// u + h when u < holders <= u + h. MPICH compares `holders` with the offset inside the pair of halves rather than
// inside the group; SMPI's message pattern depends on it, so keep it.
void add_pass_on(std::vector<Step>& steps, int rank, int level, BlockRange cut, int holders)
{
  for (int sub_step = 1; sub_step <= level; ++sub_step) {
    const int half = 1 << (level - sub_step);
    const int offset = rank % (2 * half);
    if (offset < half && offset < holders && holders <= offset + half)
      steps.push_back({Move::Send, level, sub_step, rank + half, cut, {}});
    else if (offset >= half && offset - half < holders && holders <= offset)
      steps.push_back({Move::Receive, level, sub_step, rank - half, {}, cut});
  }
}

} // namespace

std::vector<Step> schedule(int size, int rank)
{
  std::vector<Step> steps;
  for (int level = 0; (1 << level) < size; ++level) {
    const int distance = 1 << level;
    const int partner = rank ^ distance;
    const BlockRange ours = group_of(rank, distance, size);
    const BlockRange theirs = group_of(partner, distance, size);
    if (partner < size)
      steps.push_back({Move::Exchange, level, 0, partner, ours, theirs});
    // A partner group cut by P is above ours, && ours is full: its ranks paired with our first ones.
    const int holders = theirs.last - theirs.first;
    if (holders > 0 && holders < distance)
      add_pass_on(steps, rank, level, theirs, holders);
  }
  return steps;
}

BlockLayout BlockLayout::packed(std::vector<double> sizes, std::byte* base)
{
  std::vector<double> offsets = coll::displacements(sizes, {});
  return BlockLayout{std::move(sizes), std::move(offsets), base};
}

double BlockLayout::bytes(BlockRange range) const
{
  return std::accumulate(sizes.begin() + range.first, sizes.begin() + range.last, 0.0);
}

std::byte* BlockLayout::start(BlockRange range) const
{
  return range.empty() ? base : block(range.first);
}

void gather(const CollectiveContext& c, const BlockLayout& layout, int origin)
{
  auto real = [&](int v) { return (v + origin) % c.size; };
  const int me = (c.me - origin + c.size) % c.size;
  for (const Step& step : schedule(c.size, me)) {
    const int peer = real(step.peer);
    switch (step.move) {
    case Move::Exchange:
      c.rank.sendrecv(c.comm, peer, c.tag, layout.bytes(step.sent), peer, c.tag, layout.bytes(step.received),
                      layout.start(step.sent), layout.start(step.received));
      break;
    case Move::Send: c.rank.send(c.comm, peer, c.tag, layout.bytes(step.sent), layout.start(step.sent)); break;
    case Move::Receive:
      c.rank.recv(c.comm, peer, c.tag, layout.bytes(step.received), layout.start(step.received));
      break;
    }
  }
}

} // namespace mpisim::mpi::recursive_doubling
