// allreduce "rab1": Rabenseifner's reduce-scatter by recursive halving, then the library's allgather. The vector
// (padded to a multiple of P elements when n mod P != 0: P blocks of floor((n + P) / P) elements) is halved at each
// step: at mask = P/2, P/4, ..., 1 a rank exchanges half of its current range with rank XOR mask (the lower rank
// keeps the lower half) and combines what it receives. Rank r ends with block r, which the allgather spreads.
// Origin: Rabenseifner 2004, as SimGrid 3.32's allreduce__rab1.
// Fallbacks: SimGrid's rab1 refuses sizes that are not a power of two, and its halving combines ranks out of order:
// rab_rdb for those sizes and for non-commutative operations.
#include "mpi/collectives/allreduce/fold_and_combine.hpp"

namespace mpisim::mpi {
namespace {

void allreduce_rab1(const CollectiveContext& c, const CollectiveCall& call)
{
  const int P = c.size;
  if ((P & (P - 1)) != 0 || not call.commutative) {
    c.library.run_algorithm(c, "rab_rdb", call);
    return;
  }
  const long n = allreduce::element_count(call);
  const long padded = n % P == 0 ? n : (n + P) / P * P;
  const double eb = call.element_bytes;
  coll::Temp vector(call, padded * eb), scratch(call, padded * eb);
  coll::copy(vector.data(), call.send_data, call.bytes);
  const long share = padded / P;
  long send_index = 0, recv_index = 0, recv_count = 0;
  for (int mask = P / 2; mask > 0; mask /= 2) {
    const int dst = c.me ^ mask;
    recv_count = padded / (P / mask);
    if (c.me < dst)
      send_index = recv_index + mask * share;
    else
      recv_index = send_index + mask * share;
    c.rank.sendrecv(c.comm, dst, c.tag, recv_count * eb, dst, c.tag, recv_count * eb, vector.at(send_index * eb),
                    scratch.data());
    coll::reduce(call, scratch.data(), vector.at(recv_index * eb), recv_count * eb);
    send_index = recv_index;
  }
  if (P == 1)
    recv_count = padded;
  coll::copy(scratch.data(), vector.at(recv_index * eb), recv_count * eb);
  allreduce::allgather_part(c, call, recv_count * eb, scratch.data(), vector.data());
  coll::copy(call.recv_data, vector.data(), call.bytes);
}

const RegisterAlgorithm kRegister({Collective::Allreduce, "rab1",
                                   "recursive-halving reduce-scatter, then the library's allgather",
                                   "Rabenseifner 2004, SimGrid allreduce__rab1", allreduce_rab1});

} // namespace
} // namespace mpisim::mpi
