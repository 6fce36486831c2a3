// MVAPICH2's two-level scatters (MPIR_Scatter_MV2_two_level_Direct / _Binomial), as SimGrid 3.32 runs them
// (scatter__mvapich2_two_level_direct / _binomial):
//   - on one node, a plain "ompi_basic_linear" scatter;
//   - otherwise, if the root is not its node's leader (lowest rank), it first sends all P blocks to that leader;
//     the leaders scatter the nodes' runs from the leader of the root's node ("ompi_basic_linear" for direct,
//     "ompi_binomial" for binomial; a scatterv, the library's choice, when nodes have different numbers of ranks);
//     then each leader scatters its run in its node with the binomial scatter ("ompi_binomial", root 0: SimGrid's
//     scatter__mpich, the intra-node function when no MVAPICH2 selector set one).
// Ranks whose block is empty return at once. SimGrid sends the root's blocks in rank order as if each node's ranks
// were consecutive; we keep its messages and send each node its own ranks' blocks.
#pragma once

#include "mpi/collectives/building_blocks/two_level.hpp"

#include <string>

namespace mpisim::mpi::mvapich2 {

// The leaders' scatter of the nodes' runs (node order, at `all` on the leader of the root's node) into `mine`.
inline void scatter_among_leaders(const CollectiveContext& c, const two_level::Place& place, double block,
                                  int leader_root, const std::string& leaders_algorithm, const std::byte* all,
                                  std::byte* mine, bool with_data)
{
  const CollectiveContext leaders = two_level::sub_context(c, place.layout.leaders());
  CollectiveCall part;
  part.with_data = with_data;
  part.root = leader_root;
  part.send_data = all;
  part.recv_data = mine;
  if (place.layout.uniform) {
    part.op = Collective::Scatter;
    part.bytes = part.recv_bytes = block * place.local_size;
    c.library.run_algorithm(leaders, leaders_algorithm, part);
    return;
  }
  part.op = Collective::Scatterv;
  part.recv_bytes = block * place.local_size;
  for (const auto& members : place.layout.members)
    part.send_counts.push_back(block * static_cast<double>(members.size()));
  c.library.run_part(leaders, part);
}

inline void scatter_two_level(const CollectiveContext& c, const CollectiveCall& call,
                              const std::string& leaders_algorithm)
{
  const bool root = c.me == call.root;
  const double block = root ? call.bytes : call.recv_bytes;
  if (block == 0)
    return;
  const two_level::Place place = two_level::place_of(c);
  if (place.local_size == c.size) {
    c.library.run_algorithm(c, "ompi_basic_linear", call);
    return;
  }
  const int leader_of_root = place.leader_of(call.root);
  const int leader_root = place.layout.node_of[call.root];

  coll::Temp all(call, root || c.me == leader_of_root ? block * c.size : 0); // node order
  if (root)
    two_level::node_order_from_rank_order(place.layout, block, call.send_data, all.data());
  if (c.me == leader_of_root && not root)
    c.rank.recv(c.comm, call.root, c.tag, block * c.size, all.data());
  if (root && not place.leader())
    c.rank.send(c.comm, leader_of_root, c.tag, block * c.size, all.data());

  coll::Temp node_run(call, place.leader() ? block * place.local_size : 0);
  if (place.leader() && place.node_count() > 1)
    scatter_among_leaders(c, place, block, leader_root, leaders_algorithm, all.data(), node_run.data(),
                          call.has_data());
  CollectiveCall intra = call;
  intra.root = 0;
  intra.bytes = intra.recv_bytes = block;
  intra.send_data = node_run.data();
  c.library.run_algorithm(two_level::sub_context(c, place.layout.intra(place.node)), "ompi_binomial", intra);
}

} // namespace mpisim::mpi::mvapich2
