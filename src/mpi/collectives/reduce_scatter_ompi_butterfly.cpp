// reduce_scatter "ompi_butterfly": the first 2*(P - 2^k) ranks pair up, each even one sending its whole vector to
// the odd one and dropping out; the 2^k others (renumbered v) run a butterfly from the low bit up: at distance m,
// exchange with v ^ m (sendrecv) the half of the current range the partner keeps, and fold in what comes back,
// lower ranks' values on the left (so non-commutative operations keep their order). Each then holds the result
// of block mirror(v) and swaps it with rank mirror(v), which also forwards the block of its dropped-out partner.
// Origin: Open MPI coll/base reduce_scatter_intra_butterfly, as SimGrid 3.32 reduce_scatter__ompi_butterfly.
// On one rank SimGrid returns without copying the input to the output; we copy it (no message either way).
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/reduce_scatter_butterfly.hpp"

namespace mpisim::mpi {
namespace {

void reduce_scatter_ompi_butterfly(const CollectiveContext& c, const CollectiveCall& call)
{
  const std::vector<double>& counts = call.recv_counts;
  const std::vector<double> displs = coll::displacements(counts, {});
  const double total = coll::total(counts);
  if (c.size < 2) {
    coll::copy(call.recv_data, call.send_data, total);
    return;
  }
  coll::Temp result(call, total);
  coll::Temp incoming(call, total);
  coll::copy(result.data(), call.send_data, total);
  int pof2 = 1;
  while (pof2 * 2 <= c.size)
    pof2 *= 2;
  const int remain = c.size - pof2;
  int bits = 0;
  while ((1 << bits) < pof2)
    ++bits;
  // Combined blocks: block i < remain holds ranks 2i and 2i+1's blocks, block i >= remain rank i + remain's.
  auto first_rank = [&](int i) { return i < remain ? 2 * i : i + remain; };
  auto last_rank = [&](int i) { return i < remain ? 2 * i + 1 : i + remain; };
  auto span = [&](int lo, int hi) { return displs[last_rank(hi)] + counts[last_rank(hi)] - displs[first_rank(lo)]; };
  auto rank_of = [&](int v) { return v < remain ? 2 * v + 1 : v + remain; };

  int vrank = c.me - remain;
  if (c.me < 2 * remain) {
    if (c.me % 2 == 0) {
      c.rank.send(c.comm, c.me + 1, c.tag, total, result.data());
      vrank = -1;
    } else {
      c.rank.recv(c.comm, c.me - 1, c.tag, total, incoming.data());
      coll::reduce(call, incoming.data(), result.data(), total);
      vrank = c.me / 2;
    }
  }
  if (vrank == -1) {
    const int vpeer = butterfly::mirror((c.me + 1) / 2, bits);
    c.rank.recv(c.comm, rank_of(vpeer), c.tag, counts[c.me], call.recv_data);
    return;
  }
  int blocks = pof2;
  int send_index = 0;
  int recv_index = 0;
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const int vpeer = vrank ^ mask;
    blocks /= 2;
    if ((vrank & mask) == 0)
      send_index += blocks;
    else
      recv_index += blocks;
    const double send_bytes = span(send_index, send_index + blocks - 1);
    const double recv_bytes = span(recv_index, recv_index + blocks - 1);
    const double send_at = displs[first_rank(send_index)];
    const double recv_at = displs[first_rank(recv_index)];
    c.rank.sendrecv(c.comm, rank_of(vpeer), c.tag, send_bytes, rank_of(vpeer), c.tag, recv_bytes,
                    result.at(send_at), incoming.at(recv_at));
    if (vrank < vpeer)
      coll::reduce_left(call, result.at(recv_at), incoming.at(recv_at), recv_bytes);
    else
      coll::reduce(call, incoming.at(recv_at), result.at(recv_at), recv_bytes);
    send_index = recv_index;
  }
  const int vpeer = butterfly::mirror(vrank, bits);
  const int peer = rank_of(vpeer);
  int index = first_rank(send_index);
  if (vpeer < remain) { // the partner also answers for its dropped-out neighbour
    c.rank.send(c.comm, peer - 1, c.tag, counts[index], result.at(displs[index]));
    ++index;
  }
  if (vpeer != vrank)
    c.rank.sendrecv(c.comm, peer, c.tag, counts[index], peer, c.tag, counts[c.me], result.at(displs[index]),
                    call.recv_data);
  else
    coll::copy(call.recv_data, result.at(displs[c.me]), counts[c.me]);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "ompi_butterfly",
                                   "butterfly after folding the ranks beyond a power of two",
                                   "Open MPI coll/base reduce_scatter_intra_butterfly", reduce_scatter_ompi_butterfly});

} // namespace
} // namespace mpisim::mpi
