// allgatherv "ompi_bruck": at the step of distance d = 1, 2, 4, ... < P each rank sends to rank me-d the blocks of
// ranks me .. me+k-1 and receives from rank me+d those of ranks me+d .. me+d+k-1 (k = d, or P-d at the last step
// when d > P/2), each set as one message, directly in the receive buffer. Origin: Bruck et al., IEEE TPDS 1997; Open
// MPI's tuned allgatherv (SimGrid's "ompi_bruck").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgatherv_ompi_bruck(const CollectiveContext& c, const CollectiveCall& call)
{
  const allgather::VBlocks blocks = allgather::v_blocks(call);
  coll::copy(blocks.at(c.me), call.send_data, blocks.counts[c.me]);
  const int P = c.size;
  for (int distance = 1; distance < P; distance <<= 1) {
    const int from = (c.me + distance) % P;
    const int to = (c.me - distance + P) % P;
    const int count = distance <= P / 2 ? distance : P - distance;
    std::vector<int> sent, received;
    for (int i = 0; i < count; ++i) {
      sent.push_back((c.me + i) % P);
      received.push_back((from + i) % P);
    }
    allgather::exchange_blocks(c, call, blocks, to, sent, from, received);
  }
}

const RegisterAlgorithm kRegister({Collective::Allgatherv, "ompi_bruck", "log2(P) steps of doubling block sets",
                                   "Bruck et al., IEEE TPDS 1997; Open MPI tuned allgatherv", allgatherv_ompi_bruck});

} // namespace
} // namespace mpisim::mpi
