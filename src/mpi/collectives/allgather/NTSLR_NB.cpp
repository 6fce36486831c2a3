// allgather "NTSLR_NB": the logical ring of "NTSLR" with non-blocking calls: every receive from the left neighbour
// is posted first; then, step by step, the block received at the previous step is sent to the right neighbour and
// the step's receive and send are waited for. Irregular calls run "linear_nbc". Origin: SimGrid's "NTSLR_NB".
#include "mpi/collectives/building_blocks/allgather_blocks.hpp"

namespace mpisim::mpi {
namespace {

void allgather_NTSLR_NB(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.bytes != call.recv_bytes) {
    c.library.run_algorithm(c, "linear_nbc", call);
    return;
  }
  allgather::place_own(c, call);
  const int right = (c.me + 1) % c.size;
  const int left = (c.me - 1 + c.size) % c.size;
  auto block_at_step = [&](int i) { return allgather::slot(call, (c.me - i + c.size) % c.size); };
  std::vector<RequestPtr> receives;
  receives.reserve(static_cast<size_t>(c.size));
  for (int i = 0; i < c.size - 1; ++i)
    receives.push_back(c.rank.irecv(c.comm, left, c.tag, call.recv_bytes, block_at_step(i + 1)));
  for (int i = 0; i < c.size - 1; ++i) {
    RequestPtr send = c.rank.isend(c.comm, right, c.tag, call.bytes, block_at_step(i));
    c.rank.wait(*receives[i]);
    c.rank.wait(*send);
  }
}

const RegisterAlgorithm kRegister({Collective::Allgather, "NTSLR_NB", "logical ring, receives posted first",
                                   "SimGrid (non-topology-specific logical ring, non-blocking)", allgather_NTSLR_NB});

} // namespace
} // namespace mpisim::mpi
