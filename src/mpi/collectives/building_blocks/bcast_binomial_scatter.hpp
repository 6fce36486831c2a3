// The binomial scatter that starts MPICH's long-message broadcasts (scatter_LR_allgather, scatter_rdb_allgather):
// the buffer is cut into P pieces of ceil(bytes / P) bytes (the last ones may be short or empty), and relative rank
// r = (rank - root) mod P ends up holding piece r, at its own offset of the buffer.
#pragma once

#include "mpi/collectives/CollectiveData.hpp"

namespace mpisim::mpi::bcast {

// Bytes of each piece: ceil(bytes / P).
double scatter_piece_bytes(const CollectiveContext& c, const CollectiveCall& call);

// Runs the binomial scatter from the call's root; returns the bytes this rank holds from its piece's offset on
// (the root: the whole buffer before it sends, then its own piece).
double scatter_for_bcast(const CollectiveContext& c, const CollectiveCall& call);

} // namespace mpisim::mpi::bcast
