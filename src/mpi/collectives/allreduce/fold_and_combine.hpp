// Helpers shared by the allreduce algorithms SimGrid 3.32 names (their behaviour: docs/collectives.md).
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

#include <cmath>

namespace mpisim::mpi::allreduce {

// Number of whole elements of the call's buffer (SimGrid's `count`).
inline long element_count(const CollectiveCall& call)
{
  return std::lround(call.bytes / call.element_bytes);
}

// The largest power of two <= size.
inline int lower_power_of_two(int size)
{
  int pof2 = 1;
  while (pof2 * 2 <= size)
    pof2 *= 2;
  return pof2;
}

// MPICH's folding of a non-power-of-two communicator onto pof2 ranks: of the first 2 * rem ranks (rem = size - pof2),
// each even one gives its vector to the odd one above it and sits out; the others get new ranks 0 .. pof2 - 1 in the
// same order as their ranks (so the order of a non-commutative operation is kept).
struct Fold {
  int pof2;
  int rem;
  int new_rank; // -1 for the ranks that sit out

  Fold(int me, int size) : pof2(lower_power_of_two(size)), rem(size - pof2)
  {
    if (me < 2 * rem)
      new_rank = me % 2 == 0 ? -1 : me / 2;
    else
      new_rank = me - rem;
  }
  // The rank of new rank `r`.
  int real(int r) const { return r < rem ? 2 * r + 1 : r + rem; }
};

// The fold's first step on `vector` (the rank's whole current value, `bytes` long; `scratch` as big).
inline void fold_in(const CollectiveContext& c, const CollectiveCall& call, const Fold& fold, std::byte* vector,
                    std::byte* scratch, double bytes)
{
  if (c.me >= 2 * fold.rem)
    return;
  if (c.me % 2 == 0) {
    c.rank.send(c.comm, c.me + 1, c.tag, bytes, vector);
  } else {
    c.rank.recv(c.comm, c.me - 1, c.tag, bytes, scratch);
    coll::reduce(call, scratch, vector, bytes);
  }
}

// The fold's last step: the odd ranks give the result back to the even ones that sat out.
inline void fold_out(const CollectiveContext& c, const Fold& fold, std::byte* vector, double bytes)
{
  if (c.me >= 2 * fold.rem)
    return;
  if (c.me % 2 == 1)
    c.rank.send(c.comm, c.me - 1, c.tag, bytes, vector);
  else
    c.rank.recv(c.comm, c.me + 1, c.tag, bytes, vector);
}

// Combines `received` (from rank `from`) into `accumulated` (this rank's), in rank order; `received` may be
// overwritten.
inline void combine(const CollectiveCall& call, int me, int from, std::byte* received, std::byte* accumulated,
                    double bytes)
{
  if (from < me)
    coll::reduce(call, received, accumulated, bytes);
  else
    coll::reduce_left(call, accumulated, received, bytes);
}

// Runs `algorithm` of operation `op` (a sub-collective with the library's choice) on the given buffers.
inline void allgather_part(const CollectiveContext& c, const CollectiveCall& call, double block, const std::byte* send,
                           std::byte* recv)
{
  CollectiveCall part = call;
  part.op = Collective::Allgather;
  part.bytes = part.recv_bytes = block;
  part.send_data = send;
  part.recv_data = recv;
  c.library.run_part(c, part);
}

} // namespace mpisim::mpi::allreduce
