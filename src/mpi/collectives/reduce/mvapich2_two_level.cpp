// reduce "mvapich2_two_level": SMP-aware reduce. Ranks first reduce within their node to its leader (its lowest
// rank), the leaders then reduce among themselves to the leader of the root's node, which sends the result to the
// root if that is another rank. Both steps use MPICH's choice (SimGrid's reduce__mpich on a node or leader
// communicator): binomial for fewer elements than the largest power of two <= the communicator size, buffers under
// 2048 B or non-commutative operations, else scatter_gather. On a single node: buffers of at most 2048 B (commutative
// operations) go to rank 0 by ompi_basic_linear and then to the root; larger ones run mvapich2_knomial.
// Origin: MVAPICH2's MPIR_Reduce_two_level_helper_MV2, as SimGrid 3.32 reduce__mvapich2_two_level used directly
// (without the MVAPICH2 selector, so both steps run reduce__mpich). Non-commutative operations on nodes whose ranks
// are not consecutive run binomial (the node-then-leader order would not be the rank order).
#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

constexpr double kIntraShmemBytes = 2048; // MV2_INTRA_SHMEM_REDUCE_MSG
constexpr double kMpichShortBytes = 2048; // MPICH's reduce: binomial below this message size

// A collective context on `comm`, where this rank is `me`.
CollectiveContext on(const CollectiveContext& c, const Communicator& comm, int me)
{
  return CollectiveContext{c.rank, comm, c.library, me, comm.size(), c.tag};
}

// SimGrid's reduce__mpich on a node or leader communicator.
void reduce_mpich(const CollectiveContext& c, const CollectiveCall& call)
{
  int pof2 = 1;
  while (pof2 <= c.size)
    pof2 <<= 1;
  pof2 >>= 1;
  const bool small = coll::elements(call, call.bytes) < pof2 || call.bytes < kMpichShortBytes;
  c.library.run_algorithm(c, small || not call.commutative ? "binomial" : "scatter_gather", call);
}

CollectiveCall part(const CollectiveCall& call, const std::byte* in, std::byte* out, int root)
{
  CollectiveCall sub = call;
  sub.send_data = in;
  sub.recv_data = out;
  sub.root = root;
  return sub;
}

void one_node(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.bytes > kIntraShmemBytes || not call.commutative) {
    c.library.run_algorithm(c, "mvapich2_knomial", call);
    return;
  }
  coll::Temp result(call, c.me == 0 && call.root != 0 ? call.bytes : 0);
  std::byte* out = c.me == 0 ? (call.root == 0 ? call.recv_data : result.data()) : nullptr;
  // SHMEM_COLL_BLOCK_SIZE (ranks * 128 KiB) is always above 2048 B: the linear reduce.
  c.library.run_algorithm(c, "ompi_basic_linear", part(call, call.send_data, out, 0));
  if (call.root == 0)
    return;
  if (c.me == 0)
    c.rank.send(c.comm, call.root, c.tag, call.bytes, out);
  else if (c.me == call.root)
    c.rank.recv(c.comm, 0, c.tag, call.bytes, call.recv_data);
}

void reduce_mvapich2_two_level(const CollectiveContext& c, const CollectiveCall& call)
{
  const NodeLayout& layout = coll::node_layout(c);
  const CommShape shape = comm_shape(c);
  if (not call.commutative && not shape.blocked) {
    c.library.run_algorithm(c, "binomial", call);
    return;
  }
  if (layout.members.size() == 1) {
    one_node(c, call);
    return;
  }
  const int node = layout.node_of[c.me];
  const std::vector<int>& members = layout.members[node];
  const int local = static_cast<int>(std::find(members.begin(), members.end(), c.me) - members.begin());
  const int local_size = static_cast<int>(members.size());
  const int root_node = layout.node_of[call.root];
  const int leader_of_root = layout.members[root_node][0];
  const bool leader = local == 0;

  coll::Temp node_result(call, leader ? call.bytes : 0);
  const std::byte* node_value = call.send_data; // a node of one rank: its own buffer
  if (local_size > 1) {
    reduce_mpich(on(c, layout.intra(node), local), part(call, call.send_data, node_result.data(), 0));
    node_value = node_result.data();
  }
  coll::Temp result(call, leader && node == root_node ? call.bytes : 0);
  if (leader && layout.members.size() > 1) {
    std::byte* out = node == root_node ? (c.me == call.root ? call.recv_data : result.data()) : nullptr;
    reduce_mpich(on(c, layout.leaders(), node), part(call, node_value, out, root_node));
  }
  if (c.me == call.root && leader)
    return;
  if (leader && node == root_node)
    c.rank.send(c.comm, call.root, c.tag, call.bytes, result.data());
  else if (c.me == call.root)
    c.rank.recv(c.comm, leader_of_root, c.tag, call.bytes, call.recv_data);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "mvapich2_two_level", "reduce within nodes, then among leaders",
                                   "MVAPICH2 two-level reduce, as SimGrid 3.32", reduce_mvapich2_two_level});

} // namespace
} // namespace mpisim::mpi
