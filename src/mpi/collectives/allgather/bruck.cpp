// allgather "bruck": ceil(log2 P) steps in a scratch buffer that starts with this rank's block; at the step of
// distance d = 1, 2, 4, ... (while d <= P/2) each rank sends all the d blocks it holds to rank me-d and appends the d
// blocks of rank me+d; a last step sends the first P-d blocks when P is not a power of two. The scratch buffer then
// holds the blocks of ranks me, me+1, ..., rotated into place. Origin: Bruck et al., "Efficient algorithms for
// all-to-all communications in multiport message-passing systems", IEEE TPDS 1997 (SimGrid's "bruck").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_bruck(const CollectiveContext& c, const CollectiveCall& call)
{
  const double block = call.recv_bytes;
  coll::Temp work(call, c.size * block); // work[i]: the block of rank me+i
  coll::copy(work.data(), call.send_data, block);
  int held = 1;
  int distance = 1;
  for (; distance <= c.size / 2; distance *= 2, held *= 2)
    c.rank.sendrecv(c.comm, (c.me - distance + c.size) % c.size, c.tag, held * block, (c.me + distance) % c.size, c.tag,
                    held * block, work.data(), work.at(held * block));
  if (const int remainder = c.size - distance; remainder > 0)
    c.rank.sendrecv(c.comm, (c.me - distance + c.size) % c.size, c.tag, remainder * block, (c.me + distance) % c.size,
                    c.tag, remainder * block, work.data(), work.at(held * block));
  for (int i = 0; i < c.size; ++i)
    coll::copy(allgather::slot(call, (c.me + i) % c.size), work.at(i * block), block);
}

const RegisterAlgorithm kRegister({Collective::Allgather, "bruck", "log2(P) steps of doubling block sets",
                                   "Bruck et al., IEEE TPDS 1997", allgather_bruck});

} // namespace
} // namespace mpisim::mpi
