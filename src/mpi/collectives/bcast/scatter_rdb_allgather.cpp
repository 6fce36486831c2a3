// bcast "scatter_rdb_allgather": a binomial scatter of P pieces of ceil(bytes / P) bytes from the root (piece v to
// relative rank v = (rank - root) mod P; the last pieces may be short or empty), then an allgather of the pieces by
// the recursive-doubling schedule (recursive_doubling.hpp) over relative ranks, in place in the buffer. Empty pieces
// still take part: a group of them sends a 0-byte message. Nothing happens on one rank or for 0 bytes. Origin:
// MPICH's medium-message broadcast (Thakur et al. 2005), as in SimGrid 3.32.
#include "mpi/collectives/building_blocks/bcast_binomial_scatter.hpp"
#include "mpi/collectives/building_blocks/recursive_doubling.hpp"

#include <algorithm>

namespace mpisim::mpi {
namespace {

void bcast_scatter_rdb_allgather(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.size == 1 || call.bytes == 0)
    return;
  bcast::scatter_for_bcast(c, call);
  const double piece = bcast::scatter_piece_bytes(c, call);
  std::vector<double> piece_sizes(c.size);
  for (int v = 0; v < c.size; ++v)
    piece_sizes[v] = std::clamp(call.bytes - v * piece, 0.0, piece);
  recursive_doubling::gather(c, recursive_doubling::BlockLayout::packed(std::move(piece_sizes), call.recv_data),
                             call.root);
}

const RegisterAlgorithm
    kRegister({Collective::Bcast, "scatter_rdb_allgather", "binomial scatter, then recursive-doubling allgather",
               "MPICH medium-message bcast (Thakur et al. 2005), SimGrid 3.32", bcast_scatter_rdb_allgather});

} // namespace
} // namespace mpisim::mpi
