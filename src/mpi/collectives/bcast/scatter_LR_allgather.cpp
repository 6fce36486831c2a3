// bcast "scatter_LR_allgather": a binomial scatter of P pieces of ceil(bytes / P) bytes from the root, then a ring
// allgather: P-1 steps where each rank sends to its right neighbour the piece it got last (its own first) and
// receives from its left neighbour the next one. Pieces are counted from the root (piece i belongs to relative rank
// i), so they may be short or empty. Origin: MPICH's long-message broadcast (Thakur et al. 2005), as in SimGrid 3.32
// (its bcast scatter_LR_allgather).
#include "mpi/collectives/building_blocks/bcast_binomial_scatter.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

void bcast_scatter_lr_allgather(const CollectiveContext& c, const CollectiveCall& call)
{
  bcast::scatter_for_bcast(c, call);
  const double piece = bcast::scatter_piece_bytes(c, call);
  auto piece_bytes = [&](int relative) { return std::clamp(call.bytes - relative * piece, 0.0, piece); };
  const int left = (c.me + c.size - 1) % c.size;
  const int right = (c.me + 1) % c.size;
  int sent = c.me;
  int next = left;
  for (int step = 1; step < c.size; ++step) {
    const int sent_relative = (sent - call.root + c.size) % c.size;
    const int next_relative = (next - call.root + c.size) % c.size;
    // Pieces before a non-empty one are full, so piece i starts at i * piece.
    c.rank.sendrecv(c.comm, right, c.tag, piece_bytes(sent_relative), left, c.tag, piece_bytes(next_relative),
                    coll::at(call.recv_data, sent_relative * piece), coll::at(call.recv_data, next_relative * piece));
    sent = next;
    next = (next + c.size - 1) % c.size;
  }
}

const RegisterAlgorithm kRegister({Collective::Bcast, "scatter_LR_allgather", "binomial scatter, then ring allgather",
                                   "MPICH long-message bcast (Thakur et al. 2005), SimGrid 3.32",
                                   bcast_scatter_lr_allgather});

} // namespace
} // namespace mpisim::mpi
