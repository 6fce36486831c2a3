// alltoall "rdb": an allgather of whole send buffers by recursive doubling (MPICH's allgather rdb, with its tree
// fix-up for sizes that are not powers of two), after which each rank picks its blocks. At distance `mask`, ranks
// exchange everything their aligned group of `mask` ranks holds with rank XOR mask; when the partner's group runs
// past P, the ranks of my group that received pass what they got down to those that had no partner, halving.
// Messages carry what the sender holds (receives are posted for the most they could get). Origin: SimGrid 3.32
// alltoall-rdb.cpp (Star-MPI).
#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi {
namespace {

void alltoall_rdb(const CollectiveContext& c, const CollectiveCall& call)
{
  const int P = c.size;
  const double block = call.recv_bytes;
  const double buffer = P * call.recv_bytes; // one rank's whole send buffer
  // gathered[r]: the send buffer of rank r.
  coll::Temp gathered(call, buffer * P);
  coll::copy(gathered.at(c.me * buffer), call.send_data, buffer);
  double held = P * call.bytes, last_received = 0;
  for (int mask = 1, level = 0; mask < P; mask <<= 1, ++level) {
    const int partner = c.me ^ mask;
    const int partner_group = (partner >> level) << level, my_group = (c.me >> level) << level;
    if (partner < P) {
      const Status status = c.rank.sendrecv(c.comm, partner, c.tag, held, partner, c.tag, mask * buffer,
                                            gathered.at(my_group * buffer), gathered.at(partner_group * buffer));
      last_received = status.bytes;
      held += last_received;
    }
    if (partner_group + mask <= P)
      continue;
    // The partner group is cut by P: the first `complete` ranks of my group got its data and pass it on.
    const int complete = P - my_group - mask;
    for (int down = mask >> 1, bits = level - 1; down > 0; down >>= 1, --bits) {
      const int peer = c.me ^ down;
      const int tree_root = (c.me >> (bits + 1)) << (bits + 1);
      const int edge = tree_root + complete;
      if (peer > c.me && c.me < edge && peer >= edge) {
        c.rank.send(c.comm, peer, c.tag, last_received, gathered.at(partner_group * buffer));
      } else if (peer < c.me && peer < edge && c.me >= edge) {
        const Status status = c.rank.recv(c.comm, peer, c.tag, mask * buffer, gathered.at(partner_group * buffer));
        last_received = status.bytes;
        held += last_received;
      }
    }
  }
  for (int src = 0; src < P; ++src)
    coll::copy(coll::at(call.recv_data, src * block), gathered.at((src * P + c.me) * block), block);
}

const RegisterAlgorithm kRegister({Collective::Alltoall, "rdb", "allgather by recursive doubling, then local picks",
                                   "SimGrid 3.32 alltoall-rdb.cpp (Star-MPI; MPICH allgather rdb)", alltoall_rdb});

} // namespace
} // namespace mpisim::mpi
