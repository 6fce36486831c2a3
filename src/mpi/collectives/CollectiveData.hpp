// Helpers that let one algorithm serve both front ends: in replay the collective has sizes but no data, and every
// helper below is then a no-op (null pointers stay null, no memory is allocated, nothing is reduced); in online mode
// they move and combine the packed bytes of CollectiveCall.
#pragma once

#include "mpi/collectives/Collectives.hpp"

#include <cstddef>
#include <vector>

namespace mpisim::mpi::coll {

// `base + offset` bytes, or null when there is no data.
inline std::byte* at(std::byte* base, double offset)
{
  return base ? base + static_cast<std::ptrdiff_t>(offset) : nullptr;
}
inline const std::byte* at(const std::byte* base, double offset)
{
  return base ? base + static_cast<std::ptrdiff_t>(offset) : nullptr;
}

// Copies `bytes` bytes; nothing when either side is null or both are the same place (in-place calls).
void copy(std::byte* to, const std::byte* from, double bytes);

// inout = in op inout, over the `bytes` bytes (a whole number of elements) of the call's reduction type: `in` holds
// the contribution of lower ranks. Nothing in replay.
void reduce(const CollectiveCall& call, const std::byte* in, std::byte* inout, double bytes);
// left = left op right, for when the accumulated value holds the lower ranks' part; `right` is overwritten.
void reduce_left(const CollectiveCall& call, std::byte* left, std::byte* right, double bytes);

// Scratch memory of the algorithm, allocated only when the call carries data.
class Temp {
public:
  Temp(const CollectiveCall& call, double bytes);
  std::byte* data() { return storage_.empty() ? nullptr : storage_.data(); }
  std::byte* at(double offset) { return coll::at(data(), offset); }

private:
  std::vector<std::byte> storage_;
};

// Byte offsets of v-blocks: the given displacements, or the counts packed in rank order when none are given.
std::vector<double> displacements(const std::vector<double>& counts, const std::vector<double>& displs);
double total(const std::vector<double>& counts);

// n is a power of two (n > 0), and the largest power of two <= n (1 for n < 2): the selectors' size tests.
inline bool power_of_two(int n)
{
  return n > 0 && (n & (n - 1)) == 0;
}
inline int power_of_two_below(int n)
{
  int pof2 = 1;
  while (pof2 * 2 <= n)
    pof2 *= 2;
  return pof2;
}

// Number of elements of the call's reduction (or block) type in `bytes`.
inline double elements(const CollectiveCall& call, double bytes)
{
  return bytes / call.element_bytes;
}

// Where the communicator's ranks run, by host (SMP-aware algorithms): see World::node_layout.
inline const NodeLayout& node_layout(const CollectiveContext& context)
{
  const NodeLayout& layout = context.rank.world().node_layout(context.comm);
  layout.computed_by_collective = true;
  return layout;
}

} // namespace mpisim::mpi::coll
