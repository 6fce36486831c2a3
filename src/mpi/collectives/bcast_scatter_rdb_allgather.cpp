// bcast "scatter_rdb_allgather": a binomial scatter of P pieces of ceil(bytes / P) bytes from the root, then a
// recursive-doubling allgather over relative ranks: at distance 2^i each rank swaps with relative rank ^ 2^i
// everything its subtree of 2^i ranks holds. When P is not a power of two, a subtree whose partner subtree is
// missing gets the missing part afterwards from those of its ranks that have it, by recursive halving (MPICH's
// allgather fix-up). Nothing happens on one rank or for an empty buffer. Origin: MPICH's medium-message broadcast
// (Thakur et al. 2005), as in SimGrid 3.32 (bcast-scatter-rdb-allgather.cpp).
#include "mpi/collectives/bcast_scatter.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

struct RdbState {
  double piece;
  double held;          // bytes this rank holds from its subtree's offset on
  double last_received; // bytes of the last receive (MPICH sends that much in the fix-up)
};

// The fix-up after step `mask` (= 2^level) when the partner subtree is partly missing: ranks of this subtree that
// have the partner's data pass it to those that do not, halving the subtree each time.
void send_to_have_nots(const CollectiveContext& c, const CollectiveCall& call, int relative, int my_tree_root,
                       int mask, int level, RdbState& state)
{
  const int completed = c.size - my_tree_root - mask;
  const double offset = state.piece * (my_tree_root + mask);
  int k = level;
  for (int half = mask >> 1; half > 0; half >>= 1, --k) {
    const int relative_peer = relative ^ half;
    const int peer = (relative_peer + call.root) % c.size;
    const int tree_root = (relative >> k) << k;
    if (relative_peer > relative && relative < tree_root + completed && relative_peer >= tree_root + completed) {
      c.rank.send(c.comm, peer, c.tag, state.last_received, coll::at(call.recv_data, offset));
    } else if (relative_peer < relative && relative_peer < tree_root + completed &&
               relative >= tree_root + completed) {
      state.last_received =
          c.rank.recv(c.comm, peer, c.tag, std::max(call.bytes - offset, 0.0), coll::at(call.recv_data, offset))
              .bytes;
      state.held += state.last_received;
    }
  }
}

void bcast_scatter_rdb_allgather(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.size == 1 || call.bytes == 0)
    return;
  bcast::scatter_for_bcast(c, call);
  const int relative = (c.me - call.root + c.size) % c.size;
  RdbState state{bcast::scatter_piece_bytes(c, call), 0, 0};
  state.held = std::max(std::min(state.piece, call.bytes - relative * state.piece), 0.0);
  int level = 0;
  for (int mask = 1; mask < c.size; mask <<= 1, ++level) {
    const int relative_peer = relative ^ mask;
    const int peer = (relative_peer + call.root) % c.size;
    const int peer_tree_root = (relative_peer >> level) << level;
    const int my_tree_root = (relative >> level) << level;
    if (relative_peer < c.size) {
      const double send_offset = my_tree_root * state.piece;
      const double receive_offset = peer_tree_root * state.piece;
      state.last_received =
          c.rank
              .sendrecv(c.comm, peer, c.tag, state.held, peer, c.tag, std::max(call.bytes - receive_offset, 0.0),
                        coll::at(call.recv_data, send_offset), coll::at(call.recv_data, receive_offset))
              .bytes;
      state.held += state.last_received;
    }
    if (peer_tree_root + mask > c.size)
      send_to_have_nots(c, call, relative, my_tree_root, mask, level, state);
  }
}

const RegisterAlgorithm kRegister({Collective::Bcast, "scatter_rdb_allgather",
                                   "binomial scatter, then recursive-doubling allgather",
                                   "MPICH medium-message bcast (Thakur et al. 2005), SimGrid 3.32",
                                   bcast_scatter_rdb_allgather});

} // namespace
} // namespace mpisim::mpi
