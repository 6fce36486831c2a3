// reduce_scatter "ompi_ring": P-1 steps around the ring me-1 -> me -> me+1. At the first step each rank sends block
// me-1 of its vector to me+1; at each later step it receives the partial block that its left neighbour passes on,
// folds its own contribution in and forwards it, the receive of the next block being posted before waiting for the
// current one. Block b starts at rank b+1 and ends, complete, at rank b. Origin: Open MPI coll/base
// reduce_scatter_intra_ring, as SimGrid 3.32 reduce_scatter__ompi_ring. Non-commutative operations: mpich_pair
// (the ring folds the ranks in cyclic order from b+1, not in rank order; Open MPI uses it for commutative ones only).
#include "mpi/collectives/CollectiveData.hpp"

#include <algorithm>
#include <array>

namespace mpisim::mpi {
namespace {

void reduce_scatter_ompi_ring(const CollectiveContext& c, const CollectiveCall& call)
{
  if (not call.commutative) {
    c.library.run_algorithm(c, "mpich_pair", call);
    return;
  }
  const std::vector<double>& counts = call.recv_counts;
  const std::vector<double> displs = coll::displacements(counts, {});
  const double total = coll::total(counts);
  if (c.size == 1) {
    coll::copy(call.recv_data, call.send_data, total);
    return;
  }
  const double largest = *std::max_element(counts.begin(), counts.end());
  coll::Temp accumulator(call, total);
  coll::copy(accumulator.data(), call.send_data, total);
  std::array<coll::Temp, 2> incoming{coll::Temp(call, largest), coll::Temp(call, largest)};
  std::array<RequestPtr, 2> pending;
  const int send_to = (c.me + 1) % c.size;
  const int recv_from = (c.me - 1 + c.size) % c.size;
  auto block = [&](int offset) { return ((c.me + offset) % c.size + c.size) % c.size; };
  auto receive = [&](int slot, int b) {
    pending[slot] = c.rank.irecv(c.comm, recv_from, c.tag, counts[b], incoming[slot].data());
  };
  auto fold = [&](int slot, int b) {
    c.rank.wait(*pending[slot]);
    coll::reduce(call, incoming[slot].data(), accumulator.at(displs[b]), counts[b]);
  };
  int slot = 0;
  receive(slot, block(-2));
  c.rank.send(c.comm, send_to, c.tag, counts[block(-1)], accumulator.at(displs[block(-1)]));
  for (int k = 2; k < c.size; ++k) {
    const int previous = block(-k);
    slot ^= 1;
    receive(slot, block(-k - 1));
    fold(slot ^ 1, previous);
    c.rank.send(c.comm, send_to, c.tag, counts[previous], accumulator.at(displs[previous]));
  }
  fold(slot, c.me);
  coll::copy(call.recv_data, accumulator.at(displs[c.me]), counts[c.me]);
}

const RegisterAlgorithm kRegister({Collective::ReduceScatter, "ompi_ring", "partial blocks passed around a ring",
                                   "Open MPI coll/base reduce_scatter_intra_ring", reduce_scatter_ompi_ring});

} // namespace
} // namespace mpisim::mpi
