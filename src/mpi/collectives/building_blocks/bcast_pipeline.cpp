// Helpers shared by the bcast algorithms (see bcast_pipeline.hpp).
#include "mpi/collectives/building_blocks/bcast_pipeline.hpp"

#include <algorithm>
#include <cmath>

namespace mpisim::mpi::bcast {

Segments segments_of(const CollectiveCall& call, long segment_size_in_bytes)
{
  Segments s;
  s.element_bytes = call.element_bytes > 0 ? call.element_bytes : 1;
  s.count = std::lround(call.bytes / s.element_bytes);
  s.segment = std::max(1L, static_cast<long>(static_cast<double>(segment_size_in_bytes) / s.element_bytes));
  s.pipe_length = s.count / s.segment;
  s.remainder = s.count % s.segment;
  return s;
}

void root_to_rank_zero(const CollectiveContext& c, const CollectiveCall& call)
{
  if (call.root == 0)
    return;
  if (c.me == call.root)
    c.rank.send(c.comm, 0, c.tag, call.bytes, call.recv_data);
  else if (c.me == 0)
    c.rank.recv(c.comm, call.root, c.tag, call.bytes, call.recv_data);
}

void segmented_tree_from_rank_zero(const CollectiveContext& c, const CollectiveCall& call, int parent,
                                   std::span<const int> children, long segment_size_in_bytes, Forwarding forwarding)
{
  root_to_rank_zero(c, call);
  const Segments s = segments_of(call, segment_size_in_bytes);
  if (s.count <= s.segment) {
    forward_whole(c, parent, children, call.bytes, call.recv_data);
    return;
  }
  forward_segments(c, parent, children, s.segment_bytes(), s.pipe_length, call.recv_data, forwarding);
  bcast_remainder(c, call, s);
}

CollectiveCall sub_call(const CollectiveCall& call, double offset, double bytes)
{
  CollectiveCall part = call;
  part.bytes = bytes;
  part.recv_data = coll::at(call.recv_data, offset);
  return part;
}

void bcast_remainder(const CollectiveContext& c, const CollectiveCall& call, const Segments& s)
{
  if (s.remainder == 0 || s.count <= s.segment)
    return;
  const double offset = s.bytes_of(s.pipe_length * s.segment);
  c.library.run_part(c, sub_call(call, offset, s.bytes_of(s.remainder)));
}

void forward_segments(const CollectiveContext& c, int parent, std::span<const int> children, double segment_bytes,
                      long pipe_length, std::byte* buffer, Forwarding forwarding)
{
  std::vector<RequestPtr> receives;
  if (parent >= 0)
    for (long i = 0; i < pipe_length; ++i)
      receives.push_back(c.rank.irecv(c.comm, parent, c.tag, segment_bytes, coll::at(buffer, i * segment_bytes)));
  std::vector<RequestPtr> sends;
  for (long i = 0; i < pipe_length; ++i) {
    if (parent >= 0)
      c.rank.wait(*receives[static_cast<size_t>(i)]);
    std::byte* segment = coll::at(buffer, i * segment_bytes);
    for (int child : children) {
      if (forwarding == Forwarding::Blocking)
        c.rank.send(c.comm, child, c.tag, segment_bytes, segment);
      else
        sends.push_back(c.rank.isend(c.comm, child, c.tag, segment_bytes, segment));
    }
  }
  c.rank.waitall(sends);
}

void forward_whole(const CollectiveContext& c, int parent, std::span<const int> children, double bytes,
                   std::byte* buffer)
{
  if (parent >= 0)
    c.rank.recv(c.comm, parent, c.tag, bytes, buffer);
  for (int child : children)
    c.rank.send(c.comm, child, c.tag, bytes, buffer);
}

CollectiveContext on_communicator(const CollectiveContext& c, const Communicator& comm)
{
  return CollectiveContext{c.rank, comm, c.library, comm.local_rank(c.rank.world_rank()), comm.size(), c.tag};
}

void run_mpich_fallback(const CollectiveContext& c, const CollectiveCall& call)
{
  run_mpich_by_size(c, call);
}

void run_mpich_by_size(const CollectiveContext& c, const CollectiveCall& call)
{
  const char* name = "scatter_LR_allgather";
  if (call.bytes < 12288 || c.size <= 8)
    name = "binomial_tree";
  else if (call.bytes < 524288 && c.size % 2 == 0)
    name = "scatter_rdb_allgather";
  c.library.run_algorithm(c, name, call);
}

int uniform_ranks_per_node(const CollectiveContext& c)
{
  const CommShape shape = comm_shape(c);
  return shape.uniform ? shape.ranks_per_node : 0;
}

} // namespace mpisim::mpi::bcast
