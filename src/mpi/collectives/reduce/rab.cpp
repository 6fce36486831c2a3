// reduce "rab": Rabenseifner's reduce (1997). With 2^n <= P < 2^(n+1) and r = P - 2^n, the first 2r ranks pair up:
// each pair swaps halves (sendrecv), each reduces one half, and the odd one sends its half of the result to the even
// one, which alone goes on. The 2^n remaining ranks then halve the vector n times (partner at distance 1, 2, 4, ...
// of the new ranks; sendrecv of the half each gives away), and finally gather the pieces to the root from the
// farthest partner down; a root that dropped out gets rank 0's piece first and takes its place. Every operation is
// applied with the lower ranks' values on the left, so non-commutative operations keep their order.
//
// As SimGrid's version, the gather does not stop the ranks that have handed their piece over: at every later level
// those whose bit differs from the root's send their current half again, to partners that receive it. These
// messages only cost time (their data is never used) and are kept.
//
// Origin: Rabenseifner's MPI_I_anyReduce, as SimGrid 3.32's reduce rab. SimGrid runs the protocol only for
// predefined operations on predefined types (all counts, as built) and otherwise calls the configured reduce, which
// is rab itself: replays (MPI_BYTE, no operation) and user operations recurse without end there. We run the protocol
// in every case; one rank: a copy.
#include "mpi/collectives/CollectiveData.hpp"

#include <array>
#include <cmath>

namespace mpisim::mpi {
namespace {

struct Half {
  double start = 0; // elements
  double count = 0;
};

void reduce_rab(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.size == 1) {
    coll::copy(call.recv_data, call.send_data, call.bytes);
    return;
  }
  const double element = call.element_bytes;
  const double count = coll::elements(call, call.bytes);
  coll::Temp mine(call, call.bytes); // scr1buf: my partial result
  coll::Temp received(call, call.bytes);
  coll::copy(mine.data(), call.send_data, call.bytes);
  auto bytes = [&](double elements) { return elements * element; };
  auto in = [&](coll::Temp& buffer, double start) { return buffer.at(bytes(start)); };

  int n = 0;
  int pof2 = 1;
  while (2 * pof2 <= c.size) {
    ++n;
    pof2 *= 2;
  }
  const int r = c.size - pof2;
  const double low = std::floor(count / 2);
  if (c.me < 2 * r) {
    if (c.me % 2 == 0) {
      c.rank.sendrecv(c.comm, c.me + 1, c.tag, bytes(count - low), c.me + 1, c.tag, bytes(low), in(mine, low),
                      received.data());
      coll::reduce_left(call, mine.data(), received.data(), bytes(low));
      c.rank.recv(c.comm, c.me + 1, c.tag, bytes(count - low), in(mine, low));
    } else {
      c.rank.sendrecv(c.comm, c.me - 1, c.tag, bytes(low), c.me - 1, c.tag, bytes(count - low), mine.data(),
                      in(received, low));
      coll::reduce(call, in(received, low), in(mine, low), bytes(count - low));
      c.rank.send(c.comm, c.me - 1, c.tag, bytes(count - low), in(mine, low));
    }
  }
  int new_rank = -1;
  if (c.me >= 2 * r)
    new_rank = c.me - r;
  else if (c.me % 2 == 0)
    new_rank = c.me / 2;

  // The halves at each level: `even` is kept by the new ranks with bit idx clear.
  std::vector<Half> even(n);
  std::vector<Half> odd(n);
  auto split = [&](int rank_bits) {
    Half current{0, count};
    for (int idx = 0; idx < n; ++idx) {
      even[idx] = {current.start, std::floor(current.count / 2)};
      odd[idx] = {current.start + even[idx].count, current.count - even[idx].count};
      current = ((rank_bits >> idx) & 1) == 0 ? even[idx] : odd[idx];
    }
    return current;
  };
  auto old_rank = [&](int v) { return v < r ? 2 * v : v + r; };
  Half final_piece;
  if (new_rank >= 0) {
    final_piece = split(new_rank);
    for (int idx = 0, base = 1; idx < n; ++idx, base *= 2) {
      const bool lower = (new_rank / base) % 2 == 0;
      const Half keep = lower ? even[idx] : odd[idx];
      const Half give = lower ? odd[idx] : even[idx];
      const int peer = old_rank(lower ? new_rank + base : new_rank - base);
      c.rank.sendrecv(c.comm, peer, c.tag, bytes(give.count), peer, c.tag, bytes(keep.count), in(mine, give.start),
                      in(received, keep.start));
      if (lower)
        coll::reduce_left(call, in(mine, keep.start), in(received, keep.start), bytes(keep.count));
      else
        coll::reduce(call, in(received, keep.start), in(mine, keep.start), bytes(keep.count));
    }
  }

  int new_root = call.root < 2 * r ? call.root / 2 : call.root - r;
  const bool root_dropped = call.root < 2 * r && call.root % 2 == 1;
  if (root_dropped) {
    if (c.me == 0) {
      c.rank.send(c.comm, call.root, c.tag, bytes(final_piece.count), mine.data());
      new_rank = -1;
    }
    if (c.me == call.root) {
      new_rank = 0;
      final_piece = split(0);
      c.rank.recv(c.comm, 0, c.tag, bytes(final_piece.count), mine.data());
    }
    new_root = 0;
  }
  auto gather_rank = [&](int v) { return v == new_root ? call.root : old_rank(v); };
  if (new_rank >= 0) {
    for (int idx = n - 1, base = pof2 / 2; idx >= 0; --idx, base /= 2) {
      const bool lower = (new_rank / base) % 2 == 0;
      const int peer = gather_rank(lower ? new_rank + base : new_rank - base);
      if ((new_rank & base) != (new_root & base)) {
        const Half piece = lower ? even[idx] : odd[idx];
        c.rank.send(c.comm, peer, c.tag, bytes(piece.count), in(mine, piece.start));
      } else {
        const Half piece = lower ? odd[idx] : even[idx];
        c.rank.recv(c.comm, peer, c.tag, bytes(piece.count), in(mine, piece.start));
      }
    }
  }
  if (c.me == call.root)
    coll::copy(call.recv_data, mine.data(), call.bytes);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "rab", "Rabenseifner's reduce-scatter and gather",
                                   "Rabenseifner 1997 (MPI_I_anyReduce), as SimGrid 3.32", reduce_rab});

} // namespace
} // namespace mpisim::mpi
