// One-sided communication windows (MPI-3.1 chapter 11): the state behind MPI_Win handles, made only when a program
// creates a window (nothing per rank at start-up).
//
// A window is one object shared by its members, with one handle on every member (as communicators created
// collectively): its part on each member (memory, size, displacement unit, name, error handler, epoch) is indexed by
// rank in the window's communicator. RMA operations travel as messages on a hidden communicator of the window's
// members (made by MPI_Comm_create: no attribute is copied onto it), and are applied by their target
// at the closing MPI_Win_fence (RmaOperations.hpp).
#pragma once

#include "online/objects/ArrivalOrderLock.hpp"
#include "online/objects/ProcessObjects.hpp"
#include "online/runtime/HandleTable.hpp"

#include "mpi/Datatype.hpp"
#include "mpi/Request.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::mpi {
class Communicator;
}

namespace mpisim::online {

// A transfer this rank started as an origin (both its ends, and what they read or write through until they are
// complete: staging buffers, the datatypes), towards or from `peer` (a comm rank).
struct RmaTransfer {
  int peer;
  mpi::RequestPtr origin_end, target_end;
  std::shared_ptr<void> keep_alive;
};

// A transfer end in a member's list of pending ends (what its flushes wait for), with the comm rank at the other end.
struct PendingEnd {
  int peer;
  mpi::RequestPtr end;
};

// The readers-writer lock of one member's part: a request refused at once waits on its `grant` activity, completed
// when a release grants it.
using PartLock = ArrivalOrderLock<mpi::RequestPtr>;

// A memory region of a dynamic window (MPI_Win_attach), addresses as integers.
struct AttachedRegion {
  MPI_Aint base, size;
};

struct WindowPart {
  void* base = nullptr;
  MPI_Aint size = 0;
  int disp_unit = 1;
  int flavor = MPI_WIN_FLAVOR_CREATE;
  // Operations write the target's memory when their data arrives, without the target's participation: the public
  // and private copies are one (objects/RmaOperations.hpp).
  int model = MPI_WIN_UNIFIED;
  std::string name;
  int errhandler = MPI_ERRORS_ARE_FATAL;
  InfoObject hints;  // in effect on this member (objects/WindowHints.hpp)
  bool live = false; // joined and not freed yet

  // Epochs this member has open, as an origin (access) and as a target (exposure).
  bool fence_open = false;                  // a fence opened an epoch that no MPI_MODE_NOSUCCEED fence closed
  std::map<int, int> locks_held;            // target -> lock type (MPI_Win_lock)
  bool locked_all = false;                  // MPI_Win_lock_all
  bool start_open = false;                  // MPI_Win_start .. MPI_Win_complete
  std::vector<int> start_group;             // comm ranks
  bool post_open = false;                   // MPI_Win_post .. MPI_Win_wait/test
  std::vector<int> post_group;              // comm ranks whose "complete" messages MPI_Win_wait receives
  std::vector<mpi::RequestPtr> completions; // their receives, posted by the first MPI_Win_wait or MPI_Win_test

  std::vector<RmaTransfer> started;    // as an origin, since the last completion
  std::vector<PendingEnd> pending;     // ends this member's flushes wait for (docs/specifications/one-sided.md)
  PartLock pending_guard;              // exclusive only: held by a rank while it waits on `pending`
  PartLock lock;                       // MPI_Win_lock on this member's part
  PartLock atomic;                     // exclusive only: serializes the fetching atomics aimed at this part
  std::vector<AttachedRegion> regions; // dynamic windows

  bool has_access_epoch(int target) const
  {
    return fence_open || locked_all || locks_held.contains(target) ||
           (start_open && std::find(start_group.begin(), start_group.end(), target) != start_group.end());
  }
  bool passive_epoch(int target) const { return locked_all || locks_held.contains(target); }
};

struct Window {
  int handle = MPI_WIN_NULL;
  int next_tag = 0;                            // of the next transfer (RmaOperations.cpp)
  std::unique_ptr<std::byte[]> shared_segment; // MPI_Win_allocate_shared: every member's part, in rank order
  int channel = MPI_COMM_NULL;   // the hidden communicator the operations travel on (same members, same order)
  std::vector<WindowPart> parts; // by rank in the window's communicator
  int live_parts = 0;
};

class Windows {
public:
  // The window of the hidden communicator `channel` (made by its first member to arrive, with one part per member).
  Window& join(int channel, int members);
  // Null when `handle` is not a window.
  Window* find(int handle);
  // MPI_ERR_WIN: "invalid window <handle>", through `comm`'s error handler.
  int raise_invalid(Runtime& runtime, int handle, int comm, const char* call) const
  {
    return windows_.raise_invalid(runtime, handle, comm, call);
  }
  // The part of the member of rank `local_rank` in the window's communicator; null when it is not a live member.
  WindowPart* part(Window& window, int local_rank);
  // A member freed its part: the window goes when the last one has.
  void leave(Window& window, int local_rank);

private:
  HandleTable<Window> windows_{{MPI_ERR_WIN, "window"}, MPI_WIN_NULL + 1};
  std::map<int, int> handle_of_channel_; // hidden communicator -> window handle
};

// The calling rank's view of a window an MPI call names.
struct WindowAccess {
  Window* window = nullptr;
  WindowPart* part = nullptr;
  int local_rank = -1;                        // in the window's communicator
  const mpi::Communicator* channel = nullptr; // the hidden communicator
};

} // namespace mpisim::online
