// allreduce "mvapich2_two_level": an allreduce inside each node (the MPICH choice for that node's communicator: rab_rdb
// above 2048 bytes when n >= the node's largest power of two and the operation is commutative, else rdb), then the
// node leaders' rdb allreduce over the leaders' communicator (when there is more than one node), then the library's
// broadcast from the leader inside each node. Nothing is sent for n = 0.
// Origin: MVAPICH2's two-level allreduce, as SimGrid 3.32's allreduce__mvapich2_two_level called directly (its
// intra-node function then defaults to allreduce__mpich, its inter-node one to rdb).
// Fallback: with a non-commutative operation on nodes whose ranks are not consecutive the node-by-node order is not
// rank order: rdb.
#include "mpi/collectives/allreduce/fold_and_combine.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

CollectiveContext sub_context(const CollectiveContext& c, const Communicator& comm)
{
  return {c.rank, comm, c.library, comm.local_rank(c.rank.world_rank()), comm.size(), c.tag};
}

bool nodes_consecutive(const NodeLayout& layout)
{
  return std::all_of(layout.members.begin(), layout.members.end(), [](const std::vector<int>& members) {
    return members.back() - members.front() + 1 == static_cast<int>(members.size());
  });
}

// SimGrid's allreduce__mpich on a node's communicator.
const char* mpich_choice(const CollectiveCall& call, int size)
{
  const bool large = call.bytes > 2048 && allreduce::element_count(call) >= allreduce::lower_power_of_two(size);
  return large && call.commutative ? "rab_rdb" : "rdb";
}

void allreduce_mvapich2_two_level(const CollectiveContext& c, const CollectiveCall& call)
{
  const NodeLayout& layout = coll::node_layout(c);
  if (not call.commutative && not nodes_consecutive(layout)) {
    c.library.run_algorithm(c, "rdb", call);
    return;
  }
  if (allreduce::element_count(call) == 0)
    return;
  const int node = layout.node_of[c.me];
  const CollectiveContext intra = sub_context(c, layout.intra(node));
  c.library.run_algorithm(intra, mpich_choice(call, intra.size), call);
  if (intra.me == 0 && intra.size != c.size) {
    coll::Temp partial(call, call.bytes);
    coll::copy(partial.data(), call.recv_data, call.bytes);
    CollectiveCall leaders_call = call;
    leaders_call.send_data = partial.data();
    c.library.run_algorithm(sub_context(c, layout.leaders()), "rdb", leaders_call);
  }
  CollectiveCall bcast = call;
  bcast.op = Collective::Bcast;
  bcast.root = 0;
  bcast.send_data = nullptr;
  c.library.run_part(intra, bcast);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "mvapich2_two_level",
                                   "allreduce in nodes, rdb between node leaders, broadcast in nodes",
                                   "MVAPICH2, SimGrid allreduce__mvapich2_two_level", allreduce_mvapich2_two_level});

} // namespace
} // namespace mpisim::mpi
