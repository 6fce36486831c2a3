// reduce "scatter_gather": Rabenseifner's reduce. When P is not a power of two, the first 2*(P - 2^k) ranks pair
// up and each odd one hands its vector to the even one and drops out. The 2^k others split the vector into 2^k
// blocks and run a recursive-halving reduce-scatter (distance 1 first, sendrecv, then fold in); then a binomial
// gather brings the blocks to the root (to its stand-in, rank 0's survivor, which passes them on when the root
// dropped out). Buffers of fewer than P elements are padded to P elements; SimGrid's dropping-out ranks then send
// the padded vector while their partners post a receive of the unpadded one (the message is the padded size, as
// here). Nothing is sent for an empty buffer. Origin: MPICH's MPIR_Reduce_redscat_gather (Rabenseifner 2004), as
// SimGrid 3.32 reduce-scatter-gather.cpp. Non-commutative operations: binomial (this one folds the partner's data
// in on the left whatever its rank, as SimGrid does; MPICH uses it for commutative operations only).
#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>
#include <cmath>

namespace mpisim::mpi {
namespace {

void reduce_scatter_gather(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.bytes == 0)
    return;
  if (not call.commutative) {
    c.library.run_algorithm(c, "binomial", call);
    return;
  }
  const double element = call.element_bytes;
  const double count = std::max(coll::elements(call, call.bytes), static_cast<double>(c.size));
  const double bytes = count * element;
  coll::Temp accumulator(call, bytes); // padding stays zero
  coll::Temp incoming(call, bytes);
  coll::copy(accumulator.data(), call.send_data, call.bytes);
  int pof2 = 1;
  while (pof2 <= c.size)
    pof2 <<= 1;
  pof2 >>= 1;
  const int remain = c.size - pof2;
  int new_rank = c.me - remain;
  if (c.me < 2 * remain) {
    if (c.me % 2 != 0) {
      c.rank.send(c.comm, c.me - 1, c.tag, bytes, accumulator.data());
      new_rank = -1;
    } else {
      c.rank.recv(c.comm, c.me + 1, c.tag, bytes, incoming.data());
      coll::reduce(call, incoming.data(), accumulator.data(), bytes);
      new_rank = c.me / 2;
    }
  }
  // Blocks of the vector, in elements: equal, the last one taking the rest.
  std::vector<double> counts(pof2, std::floor(count / pof2));
  counts[pof2 - 1] = count - counts[0] * (pof2 - 1);
  std::vector<double> displs(pof2, 0);
  for (int i = 1; i < pof2; ++i)
    displs[i] = displs[i - 1] + counts[i - 1];
  auto sum = [&](int from, int to) {
    double s = 0;
    for (int i = from; i < to; ++i)
      s += counts[i];
    return s * element;
  };
  auto at = [&](coll::Temp& buffer, int block) { return buffer.at(displs[block] * element); };
  auto real_rank = [&](int v) { return v < remain ? v * 2 : v + remain; };

  int send_index = 0;
  int recv_index = 0;
  int last_index = pof2;
  if (new_rank != -1) {
    for (int mask = 1; mask < pof2;) {
      const int new_peer = new_rank ^ mask;
      const int peer = real_rank(new_peer);
      double send_bytes = 0;
      double recv_bytes = 0;
      if (new_rank < new_peer) {
        send_index = recv_index + pof2 / (mask * 2);
        send_bytes = sum(send_index, last_index);
        recv_bytes = sum(recv_index, send_index);
      } else {
        recv_index = send_index + pof2 / (mask * 2);
        send_bytes = sum(send_index, recv_index);
        recv_bytes = sum(recv_index, last_index);
      }
      c.rank.sendrecv(c.comm, peer, c.tag, send_bytes, peer, c.tag, recv_bytes, at(accumulator, send_index),
                      at(incoming, recv_index));
      coll::reduce(call, at(incoming, recv_index), at(accumulator, recv_index), recv_bytes);
      send_index = recv_index;
      mask <<= 1;
      if (mask < pof2)
        last_index = recv_index + pof2 / mask;
    }
  }

  // Gather to the root; a root that dropped out takes the place of new rank 0.
  const bool root_dropped = call.root < 2 * remain && call.root % 2 != 0;
  int new_root = call.root < 2 * remain ? call.root / 2 : call.root - remain;
  if (root_dropped) {
    if (c.me == call.root) {
      c.rank.recv(c.comm, 0, c.tag, counts[0] * element, accumulator.data());
      new_rank = 0;
      send_index = 0;
      last_index = 2;
    } else if (new_rank == 0) {
      c.rank.send(c.comm, call.root, c.tag, counts[0] * element, accumulator.data());
      new_rank = -1;
    }
    new_root = 0;
  }
  if (new_rank != -1) {
    int level = 0;
    while ((1 << level) < pof2)
      ++level;
    --level;
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1, --level) {
      const int new_peer = new_rank ^ mask;
      const int peer = new_peer == 0 && root_dropped ? call.root : real_rank(new_peer);
      double send_bytes = 0;
      double recv_bytes = 0;
      if (new_rank < new_peer) {
        if (mask != pof2 / 2)
          last_index += pof2 / (mask * 2);
        recv_index = send_index + pof2 / (mask * 2);
        send_bytes = sum(send_index, recv_index);
        recv_bytes = sum(recv_index, last_index);
      } else {
        recv_index = send_index - pof2 / (mask * 2);
        send_bytes = sum(send_index, last_index);
        recv_bytes = sum(recv_index, send_index);
      }
      if ((new_peer >> level) == (new_root >> level)) { // the peer's subtree holds the root: hand my blocks over
        c.rank.send(c.comm, peer, c.tag, send_bytes, at(accumulator, send_index));
        break;
      }
      c.rank.recv(c.comm, peer, c.tag, recv_bytes, at(accumulator, recv_index));
      if (new_rank > new_peer)
        send_index = recv_index;
    }
  }
  if (c.me == call.root)
    coll::copy(call.recv_data, accumulator.data(), call.bytes);
}

const RegisterAlgorithm kRegister({Collective::Reduce, "scatter_gather",
                                   "recursive-halving reduce-scatter then binomial gather (Rabenseifner)",
                                   "MPICH MPIR_Reduce_redscat_gather, as SimGrid 3.32", reduce_scatter_gather});

} // namespace
} // namespace mpisim::mpi
