// allgather "SMP_NTS": with n ranks per node (as "smp_simple"), (1) a ring of sendrecv inside each node exchanges the
// blocks; (2) node leaders form a logical ring: each posts receives of the previous nodes' n-block groups from the
// leader on its left, sends its node's group to the right, and as each group arrives forwards it to the right
// leader and into its node, where it travels down a chain of ranks (local rank j sends to j+1). A single node runs
// "linear_nbc", as SimGrid's default. Origin: SimGrid's "SMP_NTS" (SMP-aware non-topology-specific ring).
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_SMP_NTS(const CollectiveContext& c, const CollectiveCall& call)
{
  const int cores = allgather::cores_per_node(c);
  if (c.size <= cores) {
    c.library.run_algorithm(c, "linear_nbc", call);
    return;
  }
  const int local = c.me % cores;
  const int node = c.me / cores;
  const int nodes = (c.size + cores - 1) / cores;
  const int on_my_node = node == nodes - 1 ? c.size - node * cores : cores;
  const double group_bytes = cores * call.recv_bytes;
  // The group of n blocks received at ring step i: node - i - 1's.
  auto group_at_step = [&](int i) { return allgather::slot(call, ((node - i - 1 + nodes) % nodes) * cores); };
  allgather::place_own(c, call);
  for (int i = 1; i < on_my_node; ++i) {
    const int dst = node * cores + (local + i) % on_my_node;
    const int src = node * cores + (local - i + on_my_node) % on_my_node;
    c.rank.sendrecv(c.comm, dst, c.tag, call.bytes, src, c.tag, call.recv_bytes, call.send_data,
                    allgather::slot(call, src));
  }
  if (local == 0) {
    const int left = ((node - 1 + nodes) % nodes) * cores;
    const int right = ((node + 1) % nodes) * cores;
    std::vector<RequestPtr> receives, sends;
    for (int i = 0; i < nodes - 1; ++i)
      receives.push_back(c.rank.irecv(c.comm, left, c.tag, group_bytes, group_at_step(i)));
    sends.push_back(c.rank.isend(c.comm, right, c.tag, group_bytes, allgather::slot(call, node * cores)));
    for (int i = 0; i < nodes - 1; ++i) {
      c.rank.wait(*receives[i]);
      if (i < nodes - 2)
        sends.push_back(c.rank.isend(c.comm, right, c.tag, group_bytes, group_at_step(i)));
      if (on_my_node > 1)
        c.rank.send(c.comm, c.me + 1, c.tag, group_bytes, group_at_step(i));
    }
    c.rank.waitall(sends);
  } else {
    for (int i = 0; i < nodes - 1; ++i) {
      c.rank.recv(c.comm, c.me - 1, c.tag, group_bytes, group_at_step(i));
      if (local != on_my_node - 1)
        c.rank.send(c.comm, c.me + 1, c.tag, group_bytes, group_at_step(i));
    }
  }
}

const RegisterAlgorithm kRegister({Collective::Allgather, "SMP_NTS",
                                   "ring inside nodes, logical ring of leaders, chains inside nodes",
                                   "SimGrid (SMP-aware non-topology-specific ring)", allgather_SMP_NTS});

} // namespace
} // namespace mpisim::mpi
