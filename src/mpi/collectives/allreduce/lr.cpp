// allreduce "lr": logical ring. The vector is cut into P blocks of floor(n / P) elements; a ring reduce-scatter
// (P - 1 steps, each rank sending one block to rank + 1 and receiving one from rank - 1) leaves block `me` fully
// reduced at rank `me`, and a ring allgather (P - 1 steps) spreads the blocks. The n mod P trailing elements are
// then reduced by the library's allreduce (for them, fewer elements than ranks: SimGrid's lr itself falls back).
// With fewer elements than ranks, it runs redbcast.
// Origin: Patarasuk and Yuan's bandwidth-optimal allreduce, as SimGrid 3.32's allreduce__lr.
// Fallbacks: redbcast for non-commutative operations (the ring combines in ring order, not rank order). SimGrid's
// version reads its input after overwriting it when called in place; here the input is kept.
#include "mpi/collectives/allreduce/fold_and_combine.hpp"

namespace mpisim::mpi {
namespace {

void allreduce_lr(const CollectiveContext& c, const CollectiveCall& call)
{
  const long n = allreduce::element_count(call);
  if (n < c.size || not call.commutative) {
    c.library.run_algorithm(c, "redbcast", call);
    return;
  }
  const int P = c.size;
  const long elements_per_block = n / P; // whole elements: the remainder stays out of the ring
  const double block = static_cast<double>(elements_per_block) * call.element_bytes;
  const double ring_bytes = block * P;
  // The input, kept apart when called in place (the ring overwrites the receive buffer).
  coll::Temp input_copy(call, call.send_data == call.recv_data ? ring_bytes : 0);
  coll::copy(input_copy.data(), call.send_data, ring_bytes);
  const std::byte* input = input_copy.data() ? input_copy.data() : call.send_data;
  auto offset = [&](int b) { return static_cast<double>(((b % P) + P) % P) * block; };
  const int next = (c.me + 1) % P, previous = (c.me + P - 1) % P;
  coll::copy(coll::at(call.recv_data, offset(c.me - 1)), coll::at(input, offset(c.me - 1)), block);
  for (int i = 0; i < P - 1; ++i) {
    const double send_at = offset(c.me - 1 - i), recv_at = offset(c.me - 2 - i);
    c.rank.sendrecv(c.comm, next, c.tag, block, previous, c.tag, block, coll::at(call.recv_data, send_at),
                    coll::at(call.recv_data, recv_at));
    coll::reduce(call, coll::at(input, recv_at), coll::at(call.recv_data, recv_at), block);
  }
  for (int i = 0; i < P - 1; ++i) {
    const double send_at = offset(c.me - i), recv_at = offset(c.me - 1 - i);
    c.rank.sendrecv(c.comm, next, c.tag, block, previous, c.tag, block, coll::at(call.recv_data, send_at),
                    coll::at(call.recv_data, recv_at));
  }
  if (n % P != 0) {
    CollectiveCall rest = call;
    rest.bytes = call.bytes - ring_bytes;
    rest.send_data = coll::at(call.send_data, ring_bytes);
    rest.recv_data = coll::at(call.recv_data, ring_bytes);
    c.library.run_part(c, rest);
  }
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "lr", "logical ring reduce-scatter then allgather",
                                   "Patarasuk and Yuan 2009, SimGrid allreduce__lr", allreduce_lr});

} // namespace
} // namespace mpisim::mpi
