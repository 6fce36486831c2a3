// allreduce "rab2": the library's alltoall deals block j of every rank to rank j, which reduces the P blocks it got,
// then the library's allgather spreads the reduced blocks. Blocks hold n / P elements; when n mod P != 0 they hold
// floor((n + P) / P) elements (P elements when n < P), the vector being padded.
// Origin: a variant of Rabenseifner's algorithm, as SimGrid 3.32's allreduce__rab2. SimGrid reduces the received
// blocks as block_i op (block_{i-1} op ... block_0), out of order for non-commutative operations; here they are
// reduced in rank order (same messages).
#include "mpi/collectives/allreduce/fold_and_combine.hpp"

namespace mpisim::mpi {
namespace {

void allreduce_rab2(const CollectiveContext& c, const CollectiveCall& call)
{
  const int P = c.size;
  const long n = allreduce::element_count(call);
  long block_count = n / P;
  if (n % P != 0)
    block_count = n < P ? P : (n + P) / P;
  const double block = block_count * call.element_bytes;
  coll::Temp send(call, block * P), recv(call, block * P), reduced(call, block), all(call, block * P);
  coll::copy(send.data(), call.send_data, call.bytes);
  CollectiveCall alltoall = call;
  alltoall.op = Collective::Alltoall;
  alltoall.bytes = alltoall.recv_bytes = block;
  alltoall.send_data = send.data();
  alltoall.recv_data = recv.data();
  c.library.run_part(c, alltoall);
  coll::copy(reduced.data(), recv.data(), block);
  for (int i = 1; i < P; ++i)
    coll::reduce_left(call, reduced.data(), recv.at(i * block), block);
  allreduce::allgather_part(c, call, block, reduced.data(), all.data());
  coll::copy(call.recv_data, all.data(), call.bytes);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "rab2",
                                   "the library's alltoall, local reductions, then the library's allgather",
                                   "Rabenseifner, SimGrid allreduce__rab2", allreduce_rab2});

} // namespace
} // namespace mpisim::mpi
