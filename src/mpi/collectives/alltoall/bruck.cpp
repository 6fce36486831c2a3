// alltoall "bruck": ceil(log2 P) steps; at step k (distance 2^k) each rank sends to rank+2^k, receiving from
// rank-2^k, the blocks whose index has bit k set. Blocks are first rotated so that index i holds the block for rank
// me+i, and rotated back at the end. Origin: Bruck et al., "Efficient algorithms for all-to-all communications in
// multiport message-passing systems", IEEE TPDS 1997 (SimGrid's "bruck").
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void alltoall_bruck(const CollectiveContext& c, const CollectiveCall& call)
{
  const double block = call.recv_bytes;
  // work[i]: the block travelling to rank me+i (then, once arrived, the block from rank me-i).
  coll::Temp work(call, c.size * block);
  for (int i = 0; i < c.size; ++i)
    coll::copy(work.at(i * block), coll::at(call.send_data, ((c.me + i) % c.size) * call.bytes), block);
  for (int distance = 1; distance < c.size; distance *= 2) {
    std::vector<int> moving;
    for (int index = 1; index < c.size; ++index)
      if (index & distance)
        moving.push_back(index);
    const double bytes = static_cast<double>(moving.size());
    coll::Temp out(call, bytes * block), in(call, bytes * block);
    for (size_t j = 0; j < moving.size(); ++j)
      coll::copy(out.at(j * block), work.at(moving[j] * block), block);
    c.rank.sendrecv(c.comm, (c.me + distance) % c.size, c.tag, bytes * call.bytes, (c.me - distance + c.size) % c.size,
                    c.tag, bytes * call.recv_bytes, out.data(), in.data());
    for (size_t j = 0; j < moving.size(); ++j)
      coll::copy(work.at(moving[j] * block), in.at(j * block), block);
  }
  for (int i = 0; i < c.size; ++i)
    coll::copy(coll::at(call.recv_data, ((c.me - i + c.size) % c.size) * block), work.at(i * block), block);
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "bruck", "log2(P) steps of packed blocks",
                                   "Bruck et al., IEEE TPDS 1997", alltoall_bruck});

} // namespace
} // namespace mpisim::mpi
