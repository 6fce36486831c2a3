// allgatherv "ompi_neighborexchange": the neighbour exchange of allgather "ompi_neighborexchange" (P/2 steps, even
// sizes) with each rank's own count; block pairs travel as one message. Odd sizes run "ring", as Open MPI does.
// Origin: Chen et al., HPCAsia 2005; Open MPI's tuned allgatherv (SimGrid's "ompi_neighborexchange").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgatherv_neighborexchange(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.size % 2 != 0) {
    c.library.run_algorithm(c, "ring", call);
    return;
  }
  const allgather::VBlocks blocks = allgather::v_blocks(call);
  coll::copy(blocks.at(c.me), call.send_data, blocks.counts[c.me]);
  const int P = c.size;
  const bool even = c.me % 2 == 0;
  const int neighbor[2] = {even ? (c.me + 1) % P : (c.me - 1 + P) % P, even ? (c.me - 1 + P) % P : (c.me + 1) % P};
  const int offset_at_step[2] = {even ? 2 : -2, even ? -2 : 2};
  int received_from[2] = {even ? c.me : neighbor[0], even ? c.me : neighbor[0]};
  allgather::exchange_blocks(c, call, blocks, neighbor[0], {c.me}, neighbor[0], {neighbor[0]});
  int send_from = even ? c.me : received_from[0];
  for (int i = 1; i < P / 2; ++i) {
    const int parity = i % 2;
    received_from[parity] = (received_from[parity] + offset_at_step[parity] + P) % P;
    allgather::exchange_blocks(c, call, blocks, neighbor[parity], {send_from, send_from + 1}, neighbor[parity],
                               {received_from[parity], received_from[parity] + 1});
    send_from = received_from[parity];
  }
}

const RegisterAlgorithm kRegister({Collective::Allgatherv, "ompi_neighborexchange",
                                   "P/2 steps exchanging block pairs with alternating neighbours",
                                   "Chen et al., HPCAsia 2005; Open MPI tuned allgatherv",
                                   allgatherv_neighborexchange});

} // namespace
} // namespace mpisim::mpi
