// The flat reduction shared by reduce "flat_tree" and "ompi_basic_linear": every other rank sends its buffer to the
// root with a blocking send; the root receives them one by one, from rank P-1 down to rank 0, and folds each into
// its accumulator (x_i op acc), so the result keeps MPI's order x0 op ... op x(P-1) for any operation.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi::reduce_flat {

inline void to_root(const CollectiveContext& c, const CollectiveCall& call)
{
  if (c.me != call.root) {
    c.rank.send(c.comm, call.root, c.tag, call.bytes, call.send_data);
    return;
  }
  // In place, send_data is recv_data: accumulate apart and copy at the end.
  coll::Temp accumulator(call, call.bytes);
  coll::Temp incoming(call, call.bytes);
  const int last = c.size - 1;
  if (c.me == last)
    coll::copy(accumulator.data(), call.send_data, call.bytes);
  else
    c.rank.recv(c.comm, last, c.tag, call.bytes, accumulator.data());
  for (int peer = last - 1; peer >= 0; --peer) {
    const std::byte* contribution = call.send_data;
    if (peer != c.me) {
      c.rank.recv(c.comm, peer, c.tag, call.bytes, incoming.data());
      contribution = incoming.data();
    }
    coll::reduce(call, contribution, accumulator.data(), call.bytes);
  }
  coll::copy(call.recv_data, accumulator.data(), call.bytes);
}

} // namespace mpisim::mpi::reduce_flat
