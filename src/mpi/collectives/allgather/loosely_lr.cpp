// allgather "loosely_lr": with n ranks per node (as "smp_simple"), a logical ring across nodes in which rank r
// talks to ranks r+n and r-n, overlapped with all-to-all traffic inside the node: at step i each rank posts the
// receive of the next remote block from r-n and sends to r+n the block it got at the previous step (its own first),
// then exchanges that block with every other rank of its node (non-blocking), and waits for the remote block. All
// sends are waited for at the end. Origin: SimGrid's "loosely_lr" (loosely coupled logical ring).
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_loosely_lr(const CollectiveContext& c, const CollectiveCall& call)
{
  const int cores = allgather::cores_per_node(c);
  const int P = c.size;
  const int local = c.me % cores;
  const int node = c.me / cores;
  const int nodes = (P + cores - 1) / cores;
  // The block of local rank `j` of the node `i` steps before mine.
  auto block = [&](int i, int j) { return ((node - i + nodes) % nodes) * cores + j; };
  allgather::place_own(c, call);
  std::vector<RequestPtr> receives, sends, remote_sends;
  for (int i = 0; i < nodes; ++i) {
    RequestPtr remote;
    const bool forwards = i != nodes - 1;
    for (int j = 0; j < cores; ++j) {
      if (j == local && forwards) {
        remote = c.rank.irecv(c.comm, (c.me - cores + P) % P, c.tag, call.recv_bytes,
                              allgather::slot(call, block(i + 1, local)));
        remote_sends.push_back(
            c.rank.isend(c.comm, (c.me + cores) % P, c.tag, call.bytes, allgather::slot(call, block(i, local))));
      }
      if (j == local)
        continue;
      const int peer = node * cores + j;
      receives.push_back(c.rank.irecv(c.comm, peer, c.tag, call.recv_bytes, allgather::slot(call, block(i, j))));
      sends.push_back(c.rank.isend(c.comm, peer, c.tag, call.bytes, allgather::slot(call, block(i, local))));
    }
    if (forwards)
      c.rank.wait(*remote);
  }
  c.rank.waitall(receives);
  c.rank.waitall(sends);
  c.rank.waitall(remote_sends);
}

const RegisterAlgorithm kRegister({Collective::Allgather, "loosely_lr",
                                   "ring across nodes overlapped with exchanges inside nodes",
                                   "SimGrid (loosely coupled logical ring)", allgather_loosely_lr});

} // namespace
} // namespace mpisim::mpi
