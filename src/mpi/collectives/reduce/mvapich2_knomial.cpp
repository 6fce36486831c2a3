// reduce "mvapich2_knomial": a 4-nomial tree over the ranks relative to the root. Relative rank v's parent is v with
// its lowest non-zero base-4 digit cleared; its children are v plus 1, 2 or 3 times each power of 4 below that digit.
// A rank posts non-blocking receives for all its children at once, reduces each child's vector as it arrives, then
// sends its partial result to its parent. Non-commutative operations run binomial; an empty buffer sends nothing.
// Origin: MVAPICH2's MPIR_Reduce_knomial_MV2 (k-nomial factor 4), as SimGrid 3.32. Behaviour:
// docs/specifications/recursive-collectives.md.
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

constexpr int kRadix = 4;

// The tree over relative ranks 0 .. size-1, rooted at 0.
struct KnomialTree {
  int size;

  // The place value of v's lowest non-zero base-4 digit; for the root, the first power of 4 reaching the size.
  int lowest_digit_weight(int v) const
  {
    int weight = 1;
    if (v == 0) {
      while (weight < size)
        weight *= kRadix;
      return weight;
    }
    while (v % (weight * kRadix) == 0)
      weight *= kRadix;
    return weight;
  }
  int parent(int v) const
  {
    const int span = lowest_digit_weight(v) * kRadix;
    return v / span * span;
  }
  // Nearest first: weights 1, 4, ... below v's lowest digit, and within a weight the farthest (3x) first.
  std::vector<int> children(int v) const
  {
    std::vector<int> out;
    for (int weight = 1; weight < lowest_digit_weight(v); weight *= kRadix)
      for (int digit = kRadix - 1; digit >= 1; --digit)
        if (v + digit * weight < size)
          out.push_back(v + digit * weight);
    return out;
  }
};

// Receives every child's partial result at once and reduces each into `partial` as it completes (the earliest posted
// first among those complete).
void reduce_children(const CollectiveContext& c, const CollectiveCall& call, const std::vector<int>& children,
                     std::byte* partial)
{
  coll::Temp incoming(call, call.bytes * static_cast<double>(children.size())); // one slot per child
  std::vector<RequestPtr> pending;
  std::vector<size_t> slot_of_pending;
  for (size_t slot = 0; slot < children.size(); ++slot) {
    pending.push_back(c.rank.irecv(c.comm, children[slot], c.tag, call.bytes, incoming.at(slot * call.bytes)));
    slot_of_pending.push_back(slot);
  }
  while (not pending.empty()) {
    const size_t done = c.rank.waitany(pending);
    coll::reduce(call, incoming.at(slot_of_pending[done] * call.bytes), partial, call.bytes);
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(done));
    slot_of_pending.erase(slot_of_pending.begin() + static_cast<std::ptrdiff_t>(done));
  }
}

void reduce_mvapich2_knomial(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.bytes == 0)
    return;
  if (not call.commutative) {
    c.library.run_algorithm(c, "binomial", call);
    return;
  }
  const KnomialTree tree{c.size};
  const int relative = (c.me - call.root + c.size) % c.size;
  auto rank_of = [&](int v) { return (v + call.root) % c.size; };
  std::vector<int> children;
  for (int child : tree.children(relative))
    children.push_back(rank_of(child));

  coll::Temp partial(call, call.bytes);
  coll::copy(partial.data(), call.send_data, call.bytes);
  reduce_children(c, call, children, partial.data());
  if (relative == 0) {
    coll::copy(call.recv_data, partial.data(), call.bytes);
    return;
  }
  const RequestPtr send = c.rank.isend(c.comm, rank_of(tree.parent(relative)), c.tag, call.bytes, partial.data());
  c.rank.wait(*send);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "mvapich2_knomial", "k-nomial tree (k = 4)",
                                   "MVAPICH2 MPIR_Reduce_knomial_MV2", reduce_mvapich2_knomial});

} // namespace
} // namespace mpisim::mpi
