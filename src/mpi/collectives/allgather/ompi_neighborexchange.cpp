// allgather "ompi_neighborexchange": P/2 steps for an even size. Even ranks pair first with their right neighbour,
// odd ranks with their left one, and exchange their own block; then, alternating between the two neighbours, each
// rank forwards the two blocks it received at the previous step and receives two new ones. Odd sizes run "ring", as
// Open MPI does. Origin: Chen et al., "Performance evaluation of Allgather algorithms on terascale Linux cluster with
// fast Ethernet", HPCAsia 2005; Open MPI's tuned allgather (SimGrid's "ompi_neighborexchange").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_neighborexchange(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.size % 2 != 0) {
    c.library.run_algorithm(c, "ring", call);
    return;
  }
  allgather::place_own(c, call);
  const int P = c.size;
  const bool even = c.me % 2 == 0;
  const int neighbor[2] = {even ? (c.me + 1) % P : (c.me - 1 + P) % P, even ? (c.me - 1 + P) % P : (c.me + 1) % P};
  const int offset_at_step[2] = {even ? 2 : -2, even ? -2 : 2};
  int received_from[2] = {even ? c.me : neighbor[0], even ? c.me : neighbor[0]};
  c.rank.sendrecv(c.comm, neighbor[0], c.tag, call.recv_bytes, neighbor[0], c.tag, call.recv_bytes,
                  allgather::slot(call, c.me), allgather::slot(call, neighbor[0]));
  // Blocks travel in aligned pairs (2j, 2j+1), which never wrap around as P is even.
  int send_from = even ? c.me : received_from[0];
  for (int i = 1; i < P / 2; ++i) {
    const int parity = i % 2;
    received_from[parity] = (received_from[parity] + offset_at_step[parity] + P) % P;
    c.rank.sendrecv(c.comm, neighbor[parity], c.tag, 2 * call.recv_bytes, neighbor[parity], c.tag, 2 * call.recv_bytes,
                    allgather::slot(call, send_from), allgather::slot(call, received_from[parity]));
    send_from = received_from[parity];
  }
}

const RegisterAlgorithm kRegister({Collective::Allgather, "ompi_neighborexchange",
                                   "P/2 steps exchanging block pairs with alternating neighbours",
                                   "Chen et al., HPCAsia 2005; Open MPI tuned allgather", allgather_neighborexchange});

} // namespace
} // namespace mpisim::mpi
