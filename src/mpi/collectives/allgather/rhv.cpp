// allgather "rhv": recursive doubling in bit-reversed order. Each rank first swaps its block with the rank whose
// number is its own bit-reversed (a local copy when they coincide); then, from the highest bit down, it exchanges
// with rank XOR mask the 1, 2, 4, ... contiguous blocks it holds. Needs a power-of-two size (SimGrid's "rhv" refuses
// others): other sizes run "rdb". Irregular calls (send and receive blocks of different sizes) run "linear_nbc", as
// SimGrid's default. Origin: SimGrid's "rhv" (recursive halving of the vector, Thakur et al. 2005).
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_rhv(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not allgather::is_power_of_two(c.size)) {
    c.library.run_algorithm(c, "rdb", call);
    return;
  }
  if (call.bytes != call.recv_bytes) {
    c.library.run_algorithm(c, "linear_nbc", call);
    return;
  }
  int base = 0; // first block held: my rank, bit-reversed
  int mask = 1;
  for (int half = c.size / 2; mask < c.size; mask <<= 1, half /= 2)
    if (c.me & mask)
      base += half;
  c.rank.sendrecv(c.comm, base, c.tag, call.bytes, base, c.tag, call.recv_bytes, call.send_data,
                  allgather::slot(call, base));
  int held = 1;
  for (mask >>= 1; mask >= 1; mask >>= 1, held *= 2) {
    const int peer = c.me ^ mask;
    const int sent_from = base;
    const int received_at = (c.me & mask) ? base - held : base + held;
    base = std::min(base, received_at);
    c.rank.sendrecv(c.comm, peer, c.tag, held * call.recv_bytes, peer, c.tag, held * call.recv_bytes,
                    allgather::slot(call, sent_from), allgather::slot(call, received_at));
  }
}

const RegisterAlgorithm kRegister({Collective::Allgather, "rhv", "recursive doubling in bit-reversed order",
                                   "SimGrid (Thakur et al. 2005)", allgather_rhv});

} // namespace
} // namespace mpisim::mpi
