// Shared shapes of the "post everything, then wait for all" algorithms that SimGrid 3.32's default selector uses for
// gather(v), scatter(v), reduce, allgather(v) and alltoallv (its non-blocking implementations followed by a wait).
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi::linear {

// Every non-root rank sends `bytes_from(rank)` bytes of `mine` to the root; the root receives from every other rank
// in rank order, into `slot(rank)` (null in replay).
template <typename BytesFrom, typename Slot>
void fan_in(const CollectiveContext& c, int root, BytesFrom bytes_from, const std::byte* mine, Slot slot)
{
  std::vector<RequestPtr> requests;
  if (c.me != root) {
    requests.push_back(c.rank.isend(c.comm, root, c.tag, bytes_from(c.me), mine));
  } else {
    requests.reserve(c.size);
    for (int peer = 0; peer < c.size; ++peer)
      if (peer != root)
        requests.push_back(c.rank.irecv(c.comm, peer, c.tag, bytes_from(peer), slot(peer)));
  }
  c.rank.waitall(requests);
}

// The root sends `bytes_to(rank)` bytes from `slot(rank)` to every other rank in rank order; the others receive
// into `mine`.
template <typename BytesTo, typename Slot>
void fan_out(const CollectiveContext& c, int root, BytesTo bytes_to, std::byte* mine, Slot slot)
{
  std::vector<RequestPtr> requests;
  if (c.me != root) {
    requests.push_back(c.rank.irecv(c.comm, root, c.tag, bytes_to(c.me), mine));
  } else {
    requests.reserve(c.size);
    for (int peer = 0; peer < c.size; ++peer)
      if (peer != root)
        requests.push_back(c.rank.isend(c.comm, peer, c.tag, bytes_to(peer), slot(peer)));
  }
  c.rank.waitall(requests);
}

} // namespace mpisim::mpi::linear
