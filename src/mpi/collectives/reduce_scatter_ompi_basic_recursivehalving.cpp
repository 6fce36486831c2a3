// reduce_scatter "ompi_basic_recursivehalving": when P is not a power of two, the first 2*(P - 2^k) ranks pair up
// and each even one hands its whole vector to the odd one and drops out; the remaining 2^k ranks halve the vector
// log2 times (at distance 2^(k-1), ..., 1 of their new ranks: keep the half holding my blocks, send the other half,
// receive and fold in the partner's copy of mine); finally the odd ranks send the even ones their block.
// Messages of zero bytes are skipped. Origin: Open MPI coll/basic reduce_scatter (recursive halving), as SimGrid
// 3.32 reduce_scatter__ompi_basic_recursivehalving, which refuses non-commutative operations: those run mpich_pair.
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void reduce_scatter_ompi_basic_recursivehalving(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not call.commutative) {
    c.library.run_algorithm(c, "mpich_pair", call);
    return;
  }
  const std::vector<double>& counts = call.recv_counts;
  const std::vector<double> displs = coll::displacements(counts, {});
  const double total = coll::total(counts);
  if (total == 0)
    return;
  coll::Temp result(call, total);
  coll::Temp incoming(call, total);
  coll::copy(result.data(), call.send_data, total);
  int pof2 = 1;
  while (pof2 <= c.size)
    pof2 <<= 1;
  pof2 >>= 1;
  const int remain = c.size - pof2;
  int new_rank = c.me - remain;
  if (c.me < 2 * remain) {
    if (c.me % 2 == 0) {
      c.rank.send(c.comm, c.me + 1, c.tag, total, result.data());
      new_rank = -1;
    } else {
      c.rank.recv(c.comm, c.me - 1, c.tag, total, incoming.data());
      coll::reduce(call, incoming.data(), result.data(), total);
      new_rank = c.me / 2;
    }
  }
  if (new_rank >= 0) {
    // Blocks of the 2^k remaining ranks: a pair's survivor also holds its partner's block.
    std::vector<double> new_counts(pof2);
    for (int i = 0; i < pof2; ++i)
      new_counts[i] = i < remain ? counts[2 * i] + counts[2 * i + 1] : counts[i + remain];
    const std::vector<double> new_displs = coll::displacements(new_counts, {});
    auto sum = [&](int from, int to) {
      double s = 0;
      for (int i = from; i < to; ++i)
        s += new_counts[i];
      return s;
    };
    int send_index = 0;
    int recv_index = 0;
    int last_index = pof2;
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
      const int new_peer = new_rank ^ mask;
      const int peer = new_peer < remain ? new_peer * 2 + 1 : new_peer + remain;
      double send_bytes = 0;
      double recv_bytes = 0;
      if (new_rank < new_peer) {
        send_index = recv_index + mask;
        send_bytes = sum(send_index, last_index);
        recv_bytes = sum(recv_index, send_index);
      } else {
        recv_index = send_index + mask;
        send_bytes = sum(send_index, recv_index);
        recv_bytes = sum(recv_index, last_index);
      }
      RequestPtr request;
      if (send_bytes > 0 && recv_bytes != 0)
        request = c.rank.irecv(c.comm, peer, c.tag, recv_bytes, incoming.at(new_displs[recv_index]));
      if (recv_bytes > 0 && send_bytes != 0)
        c.rank.send(c.comm, peer, c.tag, send_bytes, result.at(new_displs[send_index]));
      if (request)
        c.rank.wait(*request);
      if (recv_bytes > 0)
        coll::reduce(call, incoming.at(new_displs[recv_index]), result.at(new_displs[recv_index]), recv_bytes);
      send_index = recv_index;
      last_index = recv_index + mask;
    }
    coll::copy(call.recv_data, result.at(displs[c.me]), counts[c.me]);
  }
  if (c.me < 2 * remain) {
    if (c.me % 2 == 0) {
      if (counts[c.me] > 0)
        c.rank.recv(c.comm, c.me + 1, c.tag, counts[c.me], call.recv_data);
    } else if (counts[c.me - 1] > 0) {
      c.rank.send(c.comm, c.me - 1, c.tag, counts[c.me - 1], result.at(displs[c.me - 1]));
    }
  }
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "ompi_basic_recursivehalving",
                                   "recursive halving after folding the ranks beyond a power of two",
                                   "Open MPI coll/basic reduce_scatter", reduce_scatter_ompi_basic_recursivehalving});

} // namespace
} // namespace mpisim::mpi
