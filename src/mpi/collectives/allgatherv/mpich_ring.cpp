// allgatherv "mpich_ring": a ring in which each rank forwards to its right neighbour, block after block (its own
// first, then those received from the left), in pieces of at most `piece` elements, receiving the same way from its
// left neighbour; each step is a sendrecv, or a lone send / receive when one side has nothing left. `piece` is the
// smallest count, raised to 262144 bytes' worth of elements. Origin: MPICH's ring allgatherv (SimGrid's
// "mpich_ring").
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

#include <cmath>

namespace mpisim::mpi {
namespace {

void allgatherv_mpich_ring(const CollectiveContext& c, const CollectiveCall& call)
{
  const allgather::VBlocks blocks = allgather::v_blocks(call);
  coll::copy(blocks.at(c.me), call.send_data, blocks.counts[c.me]);
  const int P = c.size;
  const double element = call.element_bytes;
  auto elements = [&](int r) { return std::round(blocks.counts[r] / element); };
  const int left = (c.me - 1 + P) % P;
  const int right = (c.me + 1) % P;
  double total = 0, piece = elements(0);
  for (int r = 0; r < P; ++r) {
    total += elements(r);
    piece = std::min(piece, elements(r));
  }
  if (piece * element < 262144)
    piece = std::floor(262144 / element);
  piece = std::max(piece, 1.0);
  double to_receive = total - elements(c.me), to_send = total - elements(right);
  int send_index = c.me, receive_index = left;
  double send_offset = 0, receive_offset = 0; // elements already moved of the current blocks
  while (to_send > 0 || to_receive > 0) {
    const double send_now = to_send > 0 ? std::min(piece, elements(send_index) - send_offset) : 0;
    const double receive_now = to_receive > 0 ? std::min(piece, elements(receive_index) - receive_offset) : 0;
    std::byte* sent = coll::at(blocks.at(send_index), send_offset * element);
    std::byte* received = coll::at(blocks.at(receive_index), receive_offset * element);
    if (send_now > 0 && receive_now > 0)
      c.rank.sendrecv(c.comm, right, c.tag, send_now * element, left, c.tag, receive_now * element, sent, received);
    else if (send_now > 0)
      c.rank.send(c.comm, right, c.tag, send_now * element, sent);
    else if (receive_now > 0)
      c.rank.recv(c.comm, left, c.tag, receive_now * element, received);
    to_send -= send_now;
    to_receive -= receive_now;
    send_offset += send_now;
    receive_offset += receive_now;
    if (send_offset == elements(send_index)) {
      send_offset = 0;
      send_index = (send_index - 1 + P) % P;
    }
    if (receive_offset == elements(receive_index)) {
      receive_offset = 0;
      receive_index = (receive_index - 1 + P) % P;
    }
  }
}

const RegisterAlgorithm kRegister({Collective::Allgatherv, "mpich_ring", "pipelined ring in pieces",
                                   "MPICH allgatherv, ring", allgatherv_mpich_ring});

} // namespace
} // namespace mpisim::mpi
