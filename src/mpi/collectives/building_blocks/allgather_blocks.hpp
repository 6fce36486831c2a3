// Helpers shared by the allgather and allgatherv algorithms: block addresses in the receive buffer, sub-communicator
// contexts for the SMP-aware algorithms and SimGrid's notion of "cores per node".
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>

namespace mpisim::mpi::allgather {

// Where rank `r`'s block (of call.recv_bytes) lives in recv_data (null in replay).
inline std::byte* slot(const CollectiveCall& call, int r)
{
  return coll::at(call.recv_data, r * call.recv_bytes);
}

// Copies this rank's block into its slot (nothing in place or in replay).
inline void place_own(const CollectiveContext& c, const CollectiveCall& call)
{
  coll::copy(slot(call, c.me), call.send_data, call.recv_bytes);
}

// The context of this rank on a sub-communicator (intra-node or leaders) of c.comm, with the same tag.
inline CollectiveContext on(const CollectiveContext& c, const Communicator& comm)
{
  return CollectiveContext{c.rank, comm, c.library, comm.local_rank(c.rank.world_rank()), comm.size(), c.tag};
}

// SimGrid's "num_core" of the SMP algorithms: the ranks on this rank's node when every node has as many, else 1.
inline int cores_per_node(const CollectiveContext& c)
{
  const NodeLayout& layout = coll::node_layout(c);
  if (not layout.uniform)
    return 1;
  return static_cast<int>(layout.members[layout.node_of[c.me]].size());
}

inline bool is_power_of_two(int n)
{
  return (n & (n - 1)) == 0;
}

// Receives from each rank of `peers` (except me) the `blocks` blocks starting at slot `first_block(peer)`, then sends
// the `blocks` blocks starting at slot `mine` to each of them with blocking sends, then waits (the mesh algorithms).
template <typename FirstBlock>
void exchange_with(const CollectiveContext& c, const CollectiveCall& call, const std::vector<int>& peers, int blocks,
                   FirstBlock first_block, int mine)
{
  std::vector<RequestPtr> receives;
  for (int peer : peers)
    if (peer != c.me)
      receives.push_back(c.rank.irecv(c.comm, peer, c.tag, blocks * call.recv_bytes, slot(call, first_block(peer))));
  for (int peer : peers)
    if (peer != c.me)
      c.rank.send(c.comm, peer, c.tag, blocks * call.recv_bytes, slot(call, mine));
  c.rank.waitall(receives);
}

// The blocks of an allgatherv's receive buffer: rank r's has counts[r] bytes at displs[r].
struct VBlocks {
  const std::vector<double>& counts;
  std::vector<double> displs;
  std::byte* base;

  std::byte* at(int r) const { return coll::at(base, displs[r]); }
  double bytes(const std::vector<int>& ranks) const
  {
    double sum = 0;
    for (int r : ranks)
      sum += counts[r];
    return sum;
  }
  // Copies the blocks of `ranks` one after the other into `out`, or back from `in` (nothing in replay).
  void pack(const std::vector<int>& ranks, std::byte* out) const
  {
    double offset = 0;
    for (int r : ranks) {
      coll::copy(coll::at(out, offset), at(r), counts[r]);
      offset += counts[r];
    }
  }
  void unpack(const std::vector<int>& ranks, const std::byte* in) const
  {
    double offset = 0;
    for (int r : ranks) {
      coll::copy(at(r), coll::at(in, offset), counts[r]);
      offset += counts[r];
    }
  }
};

inline VBlocks v_blocks(const CollectiveCall& call)
{
  return VBlocks{call.recv_counts, coll::displacements(call.recv_counts, call.recv_displs), call.recv_data};
}

// Sends the blocks of `sent` to `dst` and receives those of `received` from `src` in one sendrecv, each side packed
// contiguously (as an indexed datatype would be).
inline void exchange_blocks(const CollectiveContext& c, const CollectiveCall& call, const VBlocks& blocks, int dst,
                            const std::vector<int>& sent, int src, const std::vector<int>& received)
{
  coll::Temp out(call, blocks.bytes(sent)), in(call, blocks.bytes(received));
  blocks.pack(sent, out.data());
  c.rank.sendrecv(c.comm, dst, c.tag, blocks.bytes(sent), src, c.tag, blocks.bytes(received), out.data(), in.data());
  blocks.unpack(received, in.data());
}

} // namespace mpisim::mpi::allgather
