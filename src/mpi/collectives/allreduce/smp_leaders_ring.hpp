// What allreduce smp_rsag and smp_rsag_lr share (run_with_leaders_ring: reduce inside each node, the leaders' ring,
// broadcast inside each node). The leaders' stage is a ring reduce-scatter then a ring allgather between node
// leaders (core 0 of each node, see smp_two_level.hpp) over `nodes` blocks of floor(n / nodes) elements.
// The two differ in the n mod nodes trailing elements: smp_rsag_lr's last block carries them, smp_rsag leaves them
// out (wrong result there in SimGrid 3.32; with data the last block carries them here too, online only).
// smp_rsag_lr's quirk when n < nodes: SimGrid spots the last block by its offset, 0 for every block then, so every
// block is the whole vector (replay keeps those messages; with data the layout of smp_rsag is used, as the ring then
// counts contributions several times).
#pragma once

#include "mpi/collectives/allreduce/fold_and_combine.hpp"
#include "mpi/collectives/allreduce/smp_two_level.hpp"

namespace mpisim::mpi::allreduce {

inline void run_with_leaders_ring(const CollectiveContext& c, const CollectiveCall& call, bool last_carries_rest)
{
  const allreduce::Smp s(c);
  const double bytes = call.bytes, eb = call.element_bytes;
  coll::Temp scratch(call, bytes);
  coll::copy(call.recv_data, call.send_data, bytes);
  allreduce::intra_reduce(c, call, s, call.recv_data, scratch.data(), bytes);
  if (s.core == 0) {
    const int nodes = s.nodes;
    const long n = element_count(call);
    const long block = n / nodes, rest = n % nodes;
    const bool every_block_last = last_carries_rest && block == 0 && not call.has_data();
    auto index = [&](int b) { return ((b % nodes) + nodes) % nodes; };
    auto offset = [&](int b) { return index(b) * block * eb; };
    auto size = [&](int b) {
      const bool last = every_block_last || index(b) == nodes - 1;
      return (block + (last && (last_carries_rest || call.has_data()) ? rest : 0)) * eb;
    };
    const int to = s.rank_of((s.node + 1) % nodes, 0), from = s.rank_of((s.node + nodes - 1) % nodes, 0);
    for (int i = 0; i < nodes - 1; ++i) {
      const int send_block = s.node - 1 - i, recv_block = s.node - 2 - i;
      c.rank.sendrecv(c.comm, to, c.tag, size(send_block), from, c.tag, size(recv_block),
                      coll::at(call.recv_data, offset(send_block)), scratch.data());
      coll::reduce(call, scratch.data(), coll::at(call.recv_data, offset(recv_block)), size(recv_block));
    }
    for (int i = 0; i < nodes - 1; ++i) {
      const int send_block = s.node - i, recv_block = s.node - 1 - i;
      c.rank.sendrecv(c.comm, to, c.tag, size(send_block), from, c.tag, size(recv_block),
                      coll::at(call.recv_data, offset(send_block)), coll::at(call.recv_data, offset(recv_block)));
    }
  }
  allreduce::intra_bcast(c, s, call.recv_data, bytes);
}

} // namespace mpisim::mpi::allreduce
