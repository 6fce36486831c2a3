// reduce "mvapich2_knomial": a k-nomial tree (k = 4) rooted at the root. A rank whose relative rank r is not a
// multiple of k*m (m = 1, k, k^2, ...) sends to r rounded down to a multiple of k*m; before that it posts the
// receives of all its children (r + j*m', j = 1..k-1, for m' = m/k down to 1; the farthest posted first), takes them
// in whatever order they arrive, then sends its partial result (non-blocking send, waited at once). Nothing is sent
// for an empty buffer. Origin: MVAPICH2's MPIR_Reduce_knomial_MV2, as SimGrid 3.32 reduce__mvapich2_knomial (with
// its default factor 4). Non-commutative operations: binomial (SimGrid's version skips the operation for them).
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

constexpr int kFactor = 4;

void reduce_mvapich2_knomial(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.bytes == 0)
    return;
  if (not call.commutative) {
    c.library.run_algorithm(c, "binomial", call);
    return;
  }
  const int relative = (c.me - call.root + c.size) % c.size;
  int parent = -1;
  int mask = 1;
  for (; mask < c.size; mask *= kFactor)
    if (relative % (kFactor * mask) != 0) {
      parent = (relative / (kFactor * mask) * (kFactor * mask) + call.root) % c.size;
      break;
    }
  std::vector<int> children; // nearest-level last, as MVAPICH2 lists them
  for (mask /= kFactor; mask > 0; mask /= kFactor)
    for (int j = 1; j < kFactor; ++j)
      if (relative + mask * j < c.size)
        children.push_back((c.me + mask * j) % c.size);

  coll::Temp partial(call, call.bytes);
  coll::copy(partial.data(), call.send_data, call.bytes);
  coll::Temp incoming(call, children.size() * call.bytes);
  std::vector<RequestPtr> receives;
  for (size_t i = 0; i < children.size(); ++i)
    receives.push_back(c.rank.irecv(c.comm, children[children.size() - 1 - i], c.tag, call.bytes,
                                    incoming.at(i * call.bytes)));
  std::vector<size_t> slots(receives.size()); // slot of each receive still pending
  for (size_t i = 0; i < slots.size(); ++i)
    slots[i] = i;
  while (not receives.empty()) {
    const size_t i = c.rank.waitany(receives);
    coll::reduce(call, incoming.at(slots[i] * call.bytes), partial.data(), call.bytes);
    receives.erase(receives.begin() + static_cast<std::ptrdiff_t>(i));
    slots.erase(slots.begin() + static_cast<std::ptrdiff_t>(i));
  }
  if (c.me == call.root) {
    coll::copy(call.recv_data, partial.data(), call.bytes);
    return;
  }
  RequestPtr send = c.rank.isend(c.comm, parent, c.tag, call.bytes, partial.data());
  c.rank.wait(*send);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "mvapich2_knomial", "k-nomial tree (k = 4)",
                                   "MVAPICH2 MPIR_Reduce_knomial_MV2", reduce_mvapich2_knomial});

} // namespace
} // namespace mpisim::mpi
