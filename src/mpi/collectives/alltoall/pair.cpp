// alltoall "pair": P steps; at step i, exchange with one partner by sendrecv. With a power-of-two size the partner
// is rank XOR i (as SimGrid's "pair", which refuses other sizes); otherwise send to rank+i and receive from rank-i
// (Open MPI's pairwise), so every size works.
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void alltoall_pair(const CollectiveContext& c, const CollectiveCall& call)
{
  const int tag = c.tag;
  const bool power_of_two = (c.size & (c.size - 1)) == 0;
  for (int step = 0; step < c.size; ++step) {
    int dst = power_of_two ? c.me ^ step : (c.me + step) % c.size;
    int src = power_of_two ? c.me ^ step : (c.me - step + c.size) % c.size;
    c.rank.sendrecv(c.comm, dst, tag, call.bytes, src, tag, call.recv_bytes, coll::at(call.send_data, dst * call.bytes),
                    coll::at(call.recv_data, src * call.recv_bytes));
  }
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "pair", "pairwise exchange, one partner per step",
                                   "Star-MPI / SimGrid pair; Open MPI pairwise for non-power-of-two sizes",
                                   alltoall_pair});

} // namespace
} // namespace mpisim::mpi
