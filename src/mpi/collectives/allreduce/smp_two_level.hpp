// The two-level building blocks of SimGrid 3.32's SMP-aware allreduce algorithms (Patarasuk's smp_*): ranks are
// numbered node by node, `cores` per node (the ranks per node when every node has as many, else 1, as SimGrid's
// is_uniform test), rank = node * cores + core. Binomial trees run inside each node and between node leaders
// (core 0). Reductions combine contiguous rank ranges in rank order (SimGrid combines the higher ranks' data on the
// left, wrong for non-commutative operations; the messages are the same).
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi::allreduce {

struct Smp {
  int cores;      // ranks per node
  int core;       // this rank's index in its node
  int node;       // this rank's node
  int nodes;      // number of nodes
  int node_ranks; // ranks on this rank's node (the last node may have fewer)

  Smp(const CollectiveContext& c)
  {
    const NodeLayout& layout = coll::node_layout(c);
    cores = layout.uniform ? static_cast<int>(layout.members[layout.node_of[c.me]].size()) : 1;
    core = c.me % cores;
    node = c.me / cores;
    nodes = (c.size + cores - 1) / cores;
    node_ranks = node == nodes - 1 ? c.size - node * cores : cores;
  }
  int rank_of(int node_index, int core_index) const { return node_index * cores + core_index; }
};

// Binomial reduce of `bytes` at `data` (this rank's partial result) onto core 0 of the node.
inline void intra_reduce(const CollectiveContext& c, const CollectiveCall& call, const Smp& s, std::byte* data,
                         std::byte* scratch, double bytes)
{
  for (int mask = 1; mask < s.cores; mask <<= 1) {
    if ((mask & s.core) == 0) {
      const int src = s.rank_of(s.node, s.core | mask);
      if (src < c.size) {
        c.rank.recv(c.comm, src, c.tag, bytes, scratch);
        coll::reduce_left(call, data, scratch, bytes);
      }
    } else {
      c.rank.send(c.comm, s.rank_of(s.node, s.core & ~mask), c.tag, bytes, data);
      return;
    }
  }
}

// Binomial reduce between node leaders onto node 0 (leaders only).
inline void inter_reduce(const CollectiveContext& c, const CollectiveCall& call, const Smp& s, std::byte* data,
                         std::byte* scratch, double bytes)
{
  for (int mask = 1; mask < s.nodes; mask <<= 1) {
    if ((mask & s.node) == 0) {
      const int src = s.rank_of(s.node | mask, 0);
      if (src < c.size) {
        c.rank.recv(c.comm, src, c.tag, bytes, scratch);
        coll::reduce_left(call, data, scratch, bytes);
      }
    } else {
      c.rank.send(c.comm, s.rank_of(s.node & ~mask, 0), c.tag, bytes, data);
      return;
    }
  }
}

// Binomial broadcast from node 0 between node leaders (leaders only).
inline void inter_bcast(const CollectiveContext& c, const Smp& s, std::byte* data, double bytes)
{
  int mask = 1;
  for (; mask < s.nodes; mask <<= 1) {
    if (s.node & mask) {
      c.rank.recv(c.comm, s.rank_of(s.node - mask, 0), c.tag, bytes, data);
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    const int dst = s.rank_of(s.node + mask, 0);
    if (dst < c.size)
      c.rank.send(c.comm, dst, c.tag, bytes, data);
  }
}

// Binomial broadcast from core 0 inside the node.
inline void intra_bcast(const CollectiveContext& c, const Smp& s, std::byte* data, double bytes)
{
  int mask = 1;
  for (; mask < s.node_ranks; mask <<= 1) {
    if (s.core & mask) {
      c.rank.recv(c.comm, s.rank_of(s.node, s.core - mask), c.tag, bytes, data);
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    const int dst = s.rank_of(s.node, s.core + mask);
    if (dst < c.size)
      c.rank.send(c.comm, dst, c.tag, bytes, data);
  }
}

} // namespace mpisim::mpi::allreduce
