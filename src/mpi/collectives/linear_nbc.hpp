// Shared shapes of the "post everything, then wait for all" algorithms that SimGrid 3.32's default selector uses for
// gather(v), scatter(v), reduce, allgather(v) and alltoallv (its non-blocking implementations followed by a wait).
#pragma once

#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi::linear {

// Every non-root rank sends `bytes_from(rank)` to the root; the root receives from every other rank in rank order.
template <typename BytesFrom>
void fan_in(const CollectiveContext& c, int root, int tag, BytesFrom bytes_from)
{
  std::vector<RequestPtr> requests;
  if (c.me != root) {
    requests.push_back(c.rank.isend(c.comm, root, tag, bytes_from(c.me)));
  } else {
    requests.reserve(c.size);
    for (int peer = 0; peer < c.size; ++peer)
      if (peer != root)
        requests.push_back(c.rank.irecv(c.comm, peer, tag, bytes_from(peer)));
  }
  c.rank.waitall(requests);
}

// The root sends `bytes_to(rank)` to every other rank in rank order; the others receive.
template <typename BytesTo>
void fan_out(const CollectiveContext& c, int root, int tag, BytesTo bytes_to)
{
  std::vector<RequestPtr> requests;
  if (c.me != root) {
    requests.push_back(c.rank.irecv(c.comm, root, tag, bytes_to(c.me)));
  } else {
    requests.reserve(c.size);
    for (int peer = 0; peer < c.size; ++peer)
      if (peer != root)
        requests.push_back(c.rank.isend(c.comm, peer, tag, bytes_to(peer)));
  }
  c.rank.waitall(requests);
}

} // namespace mpisim::mpi::linear
