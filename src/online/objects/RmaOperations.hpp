// The operations of one-sided communication (MPI-3.1 sections 11.3) and the synchronizations that complete them
// (11.5), on the window object: bindings check the arguments and the epochs, then call these. What moves when, and
// what each synchronization sends and waits for, is docs/specifications/one-sided.md.
//
// The origin posts both ends of each transfer at the call (the target's end on the target's behalf), so data lands
// in the target's memory when it arrives (accumulates are combined with it then), whatever the target is doing.
#pragma once

#include "online/objects/Windows.hpp"

namespace mpisim::online {

class Runtime;

// One side of an operation, checked: `count` elements of `type` at `address` (the origin's buffer, or its result
// buffer), or at `disp` into the window of `rank` (the target; units of its displacement unit, or an address in a
// dynamic window).
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

// Whether the origin's end of a put or get waits in the origin's list for its flushes (MPI_Put, MPI_Get), or is
// only the caller's request (MPI_Rput, MPI_Rget).
enum class OriginEnd { Listed, Returned };

// The target's memory an access starts at.
void* target_address(const WindowPart& target, MPI_Aint disp);

// MPI_Put / MPI_Rput: the origin's end of the transfer (complete when the data has left, which is its arrival).
mpi::RequestPtr put(Runtime& runtime, const WindowAccess& window, const RmaOrigin& origin, const RmaTarget& target,
                    OriginEnd listing);
// MPI_Get / MPI_Rget into `origin.address`: the origin's end (complete when the data has arrived).
mpi::RequestPtr get(Runtime& runtime, const WindowAccess& window, const RmaOrigin& origin, const RmaTarget& target,
                    OriginEnd listing);
// MPI_Accumulate (blocking until the data has been combined at the target, which orders accumulates from one origin).
void accumulate(Runtime& runtime, const WindowAccess& window, const RmaOrigin& origin, const RmaTarget& target,
                MPI_Op op);
// MPI_Get_accumulate and MPI_Fetch_and_op: the target's old data into `result`, `op` applied with the origin's data
// (none for MPI_NO_OP), read and written at one instant; returns when the result has arrived.
void get_accumulate(Runtime& runtime, const WindowAccess& window, const RmaOrigin& origin, const RmaOrigin& result,
                    const RmaTarget& target, MPI_Op op);
// MPI_Compare_and_swap: one element of `target.type`.
void compare_and_swap(Runtime& runtime, const WindowAccess& window, const void* origin, const void* compare,
                      void* result, const RmaTarget& target);

// Completion ---------------------------------------------------------------------------------------------------------
// MPI_Win_flush (`target`) and MPI_Win_flush_all (negative `target`): the transfers between the calling rank and the
// target(s), both directions, complete.
void flush(Runtime& runtime, const WindowAccess& window, int target);
// MPI_Win_flush_local and _local_all: the same, as far as the calling rank's own list goes.
void flush_local(Runtime& runtime, const WindowAccess& window, int target);
// MPI_Win_fence (asserts checked).
void fence(Runtime& runtime, const WindowAccess& window, int assert);

// Passive target: blocks until granted (no message); unlock flushes, then releases.
void lock(Runtime& runtime, const WindowAccess& window, int type, int target);
void unlock(Runtime& runtime, const WindowAccess& window, int target);
void lock_all(Runtime& runtime, const WindowAccess& window);
void unlock_all(Runtime& runtime, const WindowAccess& window);

// General active target; groups are comm ranks of the window.
void post(Runtime& runtime, const WindowAccess& window, const std::vector<int>& group);
void start(Runtime& runtime, const WindowAccess& window, const std::vector<int>& group);
void complete(Runtime& runtime, const WindowAccess& window);
void wait(Runtime& runtime, const WindowAccess& window);
// One polling call: true (and the exposure epoch closed) when MPI_Win_wait would return at once.
bool test(Runtime& runtime, const WindowAccess& window);

} // namespace mpisim::online
