// gather "ompi_linear_sync": the root calls the ranks one at a time. For each other rank, in rank order, it posts a
// receive of the first segment, sends the rank an empty message (the go-ahead), posts a receive of the rest, and
// waits for the first segment; at the end it waits for all the rests. Each other rank waits for its go-ahead, then
// sends its first segment and its rest with blocking sends (the rest is sent even when empty). The first segment is
// 1024 B, or 32 KiB for blocks over 90 KiB, rounded to whole elements. Origin: Open MPI coll/tuned
// gather_intra_linear_sync, as SimGrid 3.32 runs it (gather__ompi_linear_sync).
#include "mpi/collectives/CollectiveData.hpp"
#include "mpi/collectives/building_blocks/ompi_trees.hpp"

namespace mpisim::mpi {
namespace {

double first_segment_bytes(const CollectiveCall& call, double block)
{
  const double segment = block > 92160 ? 32768 : 1024;
  const double count = coll::elements(call, block);
  return ompi::segment_count(segment, call.element_bytes, count) * call.element_bytes;
}

void gather_ompi_linear_sync(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.me != call.root) {
    const double first = first_segment_bytes(call, call.bytes);
    c.rank.recv(c.comm, call.root, c.tag, 0);
    c.rank.send(c.comm, call.root, c.tag, first, call.send_data);
    c.rank.send(c.comm, call.root, c.tag, call.bytes - first, coll::at(call.send_data, first));
    return;
  }
  const double block = call.recv_bytes;
  const double first = first_segment_bytes(call, block);
  std::vector<RequestPtr> rests;
  for (int peer = 0; peer < c.size; ++peer) {
    if (peer == c.me)
      continue;
    std::byte* slot = coll::at(call.recv_data, peer * block);
    RequestPtr head = c.rank.irecv(c.comm, peer, c.tag, first, slot);
    c.rank.send(c.comm, peer, c.tag, 0);
    rests.push_back(c.rank.irecv(c.comm, peer, c.tag, block - first, coll::at(slot, first)));
    c.rank.wait(*head);
  }
  coll::copy(coll::at(call.recv_data, c.me * block), call.send_data, block);
  c.rank.waitall(rests);
}

const RegisterAlgorithm kRegister({Collective::Gather, "ompi_linear_sync",
                                   "the root gives each rank a go-ahead, then gets its block in two segments",
                                   "Open MPI coll/tuned linear synchronised gather", gather_ompi_linear_sync});

} // namespace
} // namespace mpisim::mpi
