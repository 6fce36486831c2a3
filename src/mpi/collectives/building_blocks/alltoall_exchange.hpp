// Shapes shared by the alltoall and alltoallv algorithms of SimGrid 3.32: the
// phased pairwise exchanges ("pair", "ring" and their barrier variants) and the throttled linear exchange (Tony
// Ladd's "post 4 pairs at a time" of MPICH / MVAPICH2). Both operations are described by the same per-peer blocks, so
// one implementation serves alltoall and alltoallv.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>

namespace mpisim::mpi::exchange {

// Where the block for / from each peer lies, and its size, in bytes.
struct Blocks {
  std::vector<double> send_bytes, send_offset, recv_bytes, recv_offset;

  static Blocks of_alltoall(const CollectiveCall& call, int size)
  {
    Blocks b;
    for (int peer = 0; peer < size; ++peer) {
      b.send_bytes.push_back(call.bytes);
      b.send_offset.push_back(peer * call.bytes);
      b.recv_bytes.push_back(call.recv_bytes);
      b.recv_offset.push_back(peer * call.recv_bytes);
    }
    return b;
  }
  static Blocks of_alltoallv(const CollectiveCall& call)
  {
    return {call.send_counts, coll::displacements(call.send_counts, call.send_displs), call.recv_counts,
            coll::displacements(call.recv_counts, call.recv_displs)};
  }
  static Blocks of(const CollectiveCall& call, int size)
  {
    return call.op == Collective::Alltoallv ? of_alltoallv(call) : of_alltoall(call, size);
  }
};

// This rank's own block: a local copy (SimGrid's sendrecv to oneself copies without a message).
inline void copy_own(const CollectiveContext& c, const CollectiveCall& call, const Blocks& b)
{
  coll::copy(coll::at(call.recv_data, b.recv_offset[c.me]), coll::at(call.send_data, b.send_offset[c.me]),
             std::min(b.send_bytes[c.me], b.recv_bytes[c.me]));
}

// Sends my block for `dst` and receives the block of `src` (one blocking sendrecv); a local copy when both are me.
inline void swap_blocks(const CollectiveContext& c, const CollectiveCall& call, const Blocks& b, int dst, int src)
{
  if (dst == c.me && src == c.me) {
    copy_own(c, call, b);
    return;
  }
  c.rank.sendrecv(c.comm, dst, c.tag, b.send_bytes[dst], src, c.tag, b.recv_bytes[src],
                  coll::at(call.send_data, b.send_offset[dst]), coll::at(call.recv_data, b.recv_offset[src]));
}

inline void barrier(const CollectiveContext& c)
{
  CollectiveCall call;
  call.op = Collective::Barrier;
  c.library.run_part(c, call);
}

inline bool power_of_two(int size)
{
  return (size & (size - 1)) == 0;
}

// Who a rank exchanges with at each step: rank XOR step (pairs; SimGrid's "pair" family, which refuses sizes that
// are not powers of two), or rank+step / rank-step (rings).
enum class Partners { Xor, Ring };
// How steps are separated: not at all, by a 1-byte sendrecv with the next step's partners ("light barrier"), by a
// full barrier before every step, or by one barrier before the first.
enum class Sync { None, Light, BarrierEachStep, OneBarrier };

struct Step {
  int dst, src;
};
inline Step partners_at(Partners partners, int me, int size, int step)
{
  if (partners == Partners::Xor)
    return {me ^ step, me ^ step};
  return {(me + step) % size, (me - step + size) % size};
}

// P steps (step 0: the own block); Partners::Xor on a size that is not a power of two falls back to rings, so every
// size works.
inline void phased(const CollectiveContext& c, const CollectiveCall& call, Partners partners, Sync sync)
{
  if (partners == Partners::Xor && not power_of_two(c.size))
    partners = Partners::Ring;
  const Blocks blocks = Blocks::of(call, c.size);
  if (sync == Sync::OneBarrier)
    barrier(c);
  for (int step = 0; step < c.size; ++step) {
    if (sync == Sync::BarrierEachStep)
      barrier(c);
    const Step now = partners_at(partners, c.me, c.size, step);
    swap_blocks(c, call, blocks, now.dst, now.src);
    if (sync == Sync::Light && step >= 1 && step + 1 < c.size) {
      // The next partners: the one we will send to expects a byte from us, the one we will receive from sends one.
      const Step next = partners_at(partners, c.me, c.size, step + 1);
      c.rank.sendrecv(c.comm, next.src, c.tag, 1, next.dst, c.tag, 1);
    }
  }
}

// Blocks of `throttle` peers at a time: receives from me+ii+i, sends to me-ii-i (i < throttle), then wait for the
// block. `skip_own`: no message to oneself (the own block is copied first); otherwise the own block travels as a
// message to oneself, as in MVAPICH2's scatter_dest.
inline void throttled(const CollectiveContext& c, const CollectiveCall& call, int throttle, bool skip_own)
{
  const Blocks b = Blocks::of(call, c.size);
  if (skip_own)
    copy_own(c, call, b);
  throttle = std::min(throttle, c.size);
  for (int first = 0; first < c.size; first += throttle) {
    const int count = std::min(throttle, c.size - first);
    std::vector<RequestPtr> requests;
    for (int i = 0; i < count; ++i) {
      const int src = (c.me + first + i) % c.size;
      if (not(skip_own && src == c.me))
        requests.push_back(
            c.rank.irecv(c.comm, src, c.tag, b.recv_bytes[src], coll::at(call.recv_data, b.recv_offset[src])));
    }
    for (int i = 0; i < count; ++i) {
      const int dst = (c.me - first - i + c.size) % c.size;
      if (not(skip_own && dst == c.me))
        requests.push_back(
            c.rank.isend(c.comm, dst, c.tag, b.send_bytes[dst], coll::at(call.send_data, b.send_offset[dst])));
    }
    c.rank.waitall(requests);
  }
}

} // namespace mpisim::mpi::exchange
