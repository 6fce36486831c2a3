// One-sided communication windows (MPI-3.1 chapter 11): the state behind MPI_Win handles, made only when a program
// creates a window (nothing per rank at start-up).
//
// A window is one object shared by its members, with one handle on every member (as communicators created
// collectively): its part on each member (memory, size, displacement unit, name, error handler, epoch) is indexed by
// rank in the window's communicator. RMA operations travel as messages on a hidden communicator of the window's
// members (made by MPI_Comm_create: no attribute is copied onto it), and are applied by their target
// at the closing MPI_Win_fence (RmaOperations.hpp).
#pragma once

#include "online/runtime/HandleTable.hpp"

#include "mpi/Datatype.hpp"
#include "mpi/Request.hpp"

#include <mpi.h>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::mpi {
class Communicator;
}

namespace mpisim::online {

// What one member has issued since its last fence: the number of operations per target (comm rank), the messages
// carrying them and the replies its gets wait for, and what those messages point to (their bytes, the datatypes a
// target reads through them) until the fence has completed them everywhere.
struct RmaEpoch {
  std::map<int, int> operations_to;
  std::vector<mpi::RequestPtr> requests;
  std::vector<std::unique_ptr<std::vector<std::byte>>> payloads;
  std::vector<mpi::DatatypePtr> types;

  bool idle() const { return operations_to.empty() && requests.empty(); }
  void clear();
};

struct WindowPart {
  void* base = nullptr;
  MPI_Aint size = 0;
  int disp_unit = 1;
  int flavor = MPI_WIN_FLAVOR_CREATE;
  // Updates from other ranks reach the window's memory only at a synchronization (the target's fence): the public
  // and private copies are distinct in between, which is the separate model's promise, not the unified one's.
  int model = MPI_WIN_SEPARATE;
  std::string name;
  int errhandler = MPI_ERRORS_ARE_FATAL;
  bool live = false;       // joined and not freed yet
  bool epoch_open = false; // a fence opened an access/exposure epoch that no MPI_MODE_NOSUCCEED fence closed
  RmaEpoch epoch;
};

struct Window {
  int handle = MPI_WIN_NULL;
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
  int raise_invalid(int handle, int comm, const char* call) const { return windows_.raise_invalid(handle, comm, call); }
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
