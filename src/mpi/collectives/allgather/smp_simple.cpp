// allgather "smp_simple": with n ranks per node (SimGrid's num_core: the node's ranks when every node has as many,
// else 1; ranks me/n share a node, as SimGrid assumes), (1) a ring of sendrecv inside each node exchanges the blocks;
// (2) node leaders (local rank 0) post receives of each other node's n blocks and send their node's n blocks to every
// other leader; (3) each leader sends the whole result to its node's other ranks. Origin: SimGrid's "smp_simple".
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_smp_simple(const CollectiveContext& c, const CollectiveCall& call)
{
  const int cores = allgather::cores_per_node(c);
  const int local = c.me % cores;
  const int node = c.me / cores;
  const int nodes = (c.size + cores - 1) / cores;
  const int on_my_node = node == nodes - 1 ? c.size - node * cores : cores;
  allgather::place_own(c, call);
  for (int i = 1; i < on_my_node; ++i) {
    const int dst = node * cores + (local + i) % on_my_node;
    const int src = node * cores + (local - i + on_my_node) % on_my_node;
    c.rank.sendrecv(c.comm, dst, c.tag, call.bytes, src, c.tag, call.recv_bytes, call.send_data,
                    allgather::slot(call, src));
  }
  if (local == 0) {
    std::vector<RequestPtr> requests;
    for (int i = 1; i < nodes; ++i) {
      const int src = ((node - i + nodes) % nodes) * cores;
      requests.push_back(c.rank.irecv(c.comm, src, c.tag, cores * call.recv_bytes, allgather::slot(call, src)));
    }
    for (int i = 1; i < nodes; ++i)
      requests.push_back(
          c.rank.isend(c.comm, ((node + i) % nodes) * cores, c.tag, cores * call.bytes, allgather::slot(call, c.me)));
    c.rank.waitall(requests);
    for (int i = 1; i < on_my_node; ++i)
      c.rank.send(c.comm, c.me + i, c.tag, c.size * call.bytes, call.recv_data);
  } else {
    c.rank.recv(c.comm, node * cores, c.tag, c.size * call.recv_bytes, call.recv_data);
  }
}

const RegisterAlgorithm kRegister({Collective::Allgather, "smp_simple",
                                   "ring inside nodes, leaders exchange, leaders send the result to their node",
                                   "SimGrid (smp_simple)", allgather_smp_simple});

} // namespace
} // namespace mpisim::mpi
