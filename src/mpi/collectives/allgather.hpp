// Helpers shared by the allgather and allgatherv algorithms: block addresses in the receive buffer, sub-communicator
// contexts for the SMP-aware algorithms, SimGrid's notion of "cores per node", and MPICH's recursive doubling.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>

namespace mpisim::mpi::allgather {

// Where rank `r`'s block (of call.recv_bytes) lives in recv_data (null in replay).
inline std::byte* slot(const CollectiveCall& call, int r) { return coll::at(call.recv_data, r * call.recv_bytes); }

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

inline bool is_power_of_two(int n) { return (n & (n - 1)) == 0; }

// Recursive doubling over blocks packed in rank order in `packed` (block r: counts[r] bytes at displs[r], already
// holding this rank's own block). At step `mask` each rank exchanges with rank XOR mask the blocks of its current
// subtree (aligned groups of `mask` ranks). When the size is not a power of two, ranks whose partner does not exist
// get the partner subtree's blocks from a rank of their subtree that has them, by recursive halving. Origin: MPICH's
// recursive-doubling allgather(v) (Thakur et al. 2005), as SimGrid's allgather "rdb" and allgatherv "mpich_rdb".
inline void recursive_doubling(const CollectiveContext& c, const std::vector<double>& counts,
                               const std::vector<double>& displs, std::byte* packed)
{
  const int P = c.size;
  // Bytes of the blocks of ranks [first, last), clipped to the communicator.
  auto span_bytes = [&](int first, int last) {
    last = std::min(last, P);
    return first >= last ? 0.0 : displs[last - 1] + counts[last - 1] - displs[first];
  };
  auto span_at = [&](int first) { return coll::at(packed, first < P ? displs[first] : 0.0); };
  for (int mask = 1, level = 0; mask < P; mask <<= 1, ++level) {
    const int dst = c.me ^ mask;
    const int dst_tree_root = (dst >> level) << level;
    const int my_tree_root = (c.me >> level) << level;
    const double theirs = span_bytes(dst_tree_root, dst_tree_root + mask);
    if (dst < P)
      c.rank.sendrecv(c.comm, dst, c.tag, span_bytes(my_tree_root, my_tree_root + mask), dst, c.tag, theirs,
                      span_at(my_tree_root), span_at(dst_tree_root));
    if (dst_tree_root + mask <= P)
      continue;
    // The first `completed` ranks of this subtree have the partner subtree's blocks: pass them on by halving.
    const int completed = P - my_tree_root - mask;
    int k = 0;
    for (int j = mask; j > 1; j >>= 1)
      ++k;
    for (int half = mask >> 1; half > 0; half >>= 1, --k) {
      const int peer = c.me ^ half;
      const int tree_root = (c.me >> k) << k;
      if (peer > c.me && c.me < tree_root + completed && peer >= tree_root + completed)
        c.rank.send(c.comm, peer, c.tag, theirs, span_at(dst_tree_root));
      else if (peer < c.me && peer < tree_root + completed && c.me >= tree_root + completed)
        c.rank.recv(c.comm, peer, c.tag, theirs, span_at(dst_tree_root));
    }
  }
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
