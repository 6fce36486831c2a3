// alltoall "rdb": every rank gathers every rank's whole send buffer by the recursive-doubling schedule
// (recursive_doubling.hpp), then picks out the blocks meant for it: output block s is block `me` of rank s's buffer.
// The messages are sized by the send block (call.bytes), the gathered buffer and the picks by recv_bytes, as SimGrid
// does; the two are equal in a valid call. Every message is sent, even with 0-byte blocks. Origin: SimGrid 3.32's
// alltoall "rdb" (from the STAR-MPI collection), an allgather by MPICH's recursive doubling.
#include "mpi/collectives/building_blocks/recursive_doubling.hpp"

namespace mpisim::mpi {
namespace {

void alltoall_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  const double buffer_bytes = c.size * call.recv_bytes; // one rank's send buffer, as gathered
  coll::Temp gathered(call, c.size * buffer_bytes);
  recursive_doubling::BlockLayout buffers{std::vector<double>(c.size, c.size * call.bytes), {}, gathered.data()};
  for (int r = 0; r < c.size; ++r)
    buffers.offsets.push_back(r * buffer_bytes);
  coll::copy(buffers.block(c.me), call.send_data, buffer_bytes);
  recursive_doubling::gather(c, buffers);
  for (int source = 0; source < c.size; ++source)
    coll::copy(coll::at(call.recv_data, source * call.recv_bytes),
               coll::at(buffers.block(source), c.me * call.recv_bytes), call.recv_bytes);
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "rdb", "allgather by recursive doubling, then local picks",
                                   "SimGrid 3.32's alltoall rdb (Star-MPI; MPICH allgather rdb)", alltoall_rdb});

} // namespace
} // namespace mpisim::mpi
