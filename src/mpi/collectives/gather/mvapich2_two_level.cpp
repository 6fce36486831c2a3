// gather "mvapich2_two_level": each node gathers its ranks' blocks at its leader (its lowest rank) with the binomial
// gather ("ompi_binomial", root 0 of the node); the leaders then gather their nodes' runs at the leader of the
// root's node with blocking sends ("ompi_basic_linear" on the leader communicator); if the root is not a leader, its
// leader finally sends it all P blocks. Nodes with different numbers of ranks use a gatherv among the leaders (the
// library's choice). Ranks whose block is empty return at once. Origin: MVAPICH2's two-level gather
// (MPIR_Gather_MV2_two_level_Direct), as SimGrid 3.32 runs it (gather__mvapich2_two_level, its intra-node function
// defaulting to SimGrid's gather__mpich, i.e. ompi_binomial).
//
// SimGrid's version crashes on non-uniform nodes (it sets the leaders' rank to their number, so the root of the
// gatherv has no counts), and places the leaders' runs in node order, which is rank order only when each node's ranks
// are consecutive. We keep its messages, gather the runs in node order and put each block at its rank's place.
#include "mpi/collectives/building_blocks/two_level.hpp"

namespace mpisim::mpi {
namespace {

// The leaders' gather of their nodes' runs (`run` bytes at `mine`) into `all` (node order) at `leader_root`.
void gather_among_leaders(const CollectiveContext& c, const two_level::Place& place, double block, int leader_root,
                          const std::byte* mine, std::byte* all, bool with_data)
{
  const CollectiveContext leaders = two_level::sub_context(c, place.layout.leaders());
  CollectiveCall part;
  part.with_data = with_data;
  part.root = leader_root;
  part.send_data = mine;
  part.recv_data = all;
  if (place.layout.uniform) {
    part.op = Collective::Gather;
    part.bytes = part.recv_bytes = block * place.local_size;
    c.library.run_algorithm(leaders, "ompi_basic_linear", part);
    return;
  }
  part.op = Collective::Gatherv;
  part.bytes = block * place.local_size;
  for (const auto& members : place.layout.members)
    part.recv_counts.push_back(block * static_cast<double>(members.size()));
  c.library.run_part(leaders, part);
}

void gather_mvapich2_two_level(const CollectiveContext& c, const CollectiveCall& call)
{
  const bool root = c.me == call.root;
  const double block = root ? call.recv_bytes : call.bytes;
  if (block == 0)
    return;
  const two_level::Place place = two_level::place_of(c);
  const int leader_of_root = place.leader_of(call.root);
  const int leader_root = place.layout.node_of[call.root];

  coll::Temp node_run(call, place.leader() ? block * place.local_size : 0);
  CollectiveCall intra = call;
  intra.root = 0;
  intra.bytes = intra.recv_bytes = block;
  intra.recv_data = node_run.data();
  c.library.run_algorithm(two_level::sub_context(c, place.layout.intra(place.node)), "ompi_binomial", intra);

  coll::Temp all(call, c.me == leader_of_root || root ? block * c.size : 0); // node order
  if (place.leader())
    gather_among_leaders(c, place, block, leader_root, node_run.data(), all.data(), call.has_data());
  if (c.me == leader_of_root && not root)
    c.rank.send(c.comm, call.root, c.tag, block * c.size, all.data());
  if (root && not place.leader())
    c.rank.recv(c.comm, leader_of_root, c.tag, block * c.size, all.data());
  if (root)
    two_level::rank_order_from_node_order(place.layout, block, all.data(), call.recv_data);
}

const RegisterAlgorithm kRegister({Collective::Gather, "mvapich2_two_level",
                                   "binomial gather in each node, then linear gather among the leaders",
                                   "MVAPICH2 two-level gather", gather_mvapich2_two_level});

} // namespace
} // namespace mpisim::mpi
