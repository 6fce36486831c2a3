// The operations of one-sided communication (MPI-3.1 section 11.3) and the fence that completes them (11.5.1), on
// the window object: bindings check the arguments and call these.
//
// Every operation is a message on the window's hidden communicator, sent when the operation is issued: a put or an
// accumulate carries a small header (what to do, where, with which target datatype) and the origin's data packed; a
// get carries the header alone, and its origin posts the receive of the reply into its buffer at once. Targets act
// at the closing fence, as MPICH's fence does: the members learn how many operations target them (a
// reduce-scatter of counts), each receives its operations in arrival order (so accumulates from one origin are
// applied in the order issued), applies puts and accumulates to its memory and answers gets from it, waits for its
// own operations and replies, and a barrier ends the fence.
#pragma once

#include "online/objects/Windows.hpp"

namespace mpisim::online {

class Runtime;

enum class RmaKind : int { Put, Get, Accumulate };

// One side of an operation, checked: `count` elements of `type` at `address` (the origin's buffer), or at `disp`
// units into the window of `rank` (the target).
struct RmaOrigin {
  const void* address;
  int count;
  mpi::DatatypePtr type;
};
struct RmaTarget {
  int rank;
  MPI_Aint disp;
  int count;
  mpi::DatatypePtr type;
};

// MPI_Put (kind Put) and MPI_Accumulate (kind Accumulate with `op`): sent to the target, applied at its fence.
void issue_update(Runtime& runtime, const WindowAccess& window, RmaKind kind, MPI_Op op, const RmaOrigin& origin,
                  const RmaTarget& target);
// MPI_Get: the reply is received into `origin_buffer` (the origin's type may have been rebased for MPI_BOTTOM).
void issue_get(Runtime& runtime, const WindowAccess& window, void* origin_buffer, int origin_count,
               const mpi::DatatypePtr& origin_type, const RmaTarget& target);
// MPI_Win_fence (asserts checked): completes the epoch it closes unless MPI_MODE_NOPRECEDE says there is none, and
// opens the next unless MPI_MODE_NOSUCCEED.
void fence(Runtime& runtime, const WindowAccess& window, int assert);

} // namespace mpisim::online
