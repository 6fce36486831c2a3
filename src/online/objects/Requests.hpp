// The requests behind MPI_Request handles (point-to-point, collective, persistent and generalized), and the messages
// behind MPI_Message handles: those MPI_Mprobe/MPI_Improbe took out of matching, until MPI_Mrecv/MPI_Imrecv
// receives them. Handles are shared by all ranks; each is used by the rank that made it.
#pragma once

#include "online/runtime/HandleTable.hpp"

#include "mpi/Message.hpp"
#include "mpi/Request.hpp"

#include <mpi.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::online {

// The object whose error handler raises a request's failure when a completion call (MPI_Wait, MPI_Test...) finds it
// (MPI-3.1 section 8.3): the communicator of a point-to-point or collective request, the file of an I/O request, the
// window of a request-based RMA operation. A generalized request has none of its own: MPI_COMM_WORLD's.
struct ErrorOwner {
  enum class Kind { Communicator, File, Window };
  Kind kind = Kind::Communicator;
  int handle = MPI_COMM_WORLD;

  static ErrorOwner communicator(int comm) { return {Kind::Communicator, comm}; }
  static ErrorOwner file(int fh) { return {Kind::File, fh}; }
  static ErrorOwner window(int win) { return {Kind::Window, win}; }
};

// A failure the operation found after the call that posted it returned (the file system refusing a posted
// collective access): the class its completion raises, and why. MPI_SUCCESS while there is none.
struct RequestFailure {
  int error_class = MPI_SUCCESS;
  std::string what;
};

// One user request: the simulator's request, and what to do when it completes (unpack a collective's result).
struct RequestEntry {
  mpi::RequestPtr request; // null for requests on MPI_PROC_NULL (complete at once)
  ErrorOwner owner;
  std::shared_ptr<RequestFailure> late_failure; // null for operations that cannot fail after their call
  std::function<void()> on_complete;
  std::shared_ptr<void> keep_alive; // buffers of a non-blocking collective
  // Persistent requests (api_persistent.cpp): MPI_Start posts the operation again through `start` (which returns
  // an error class and sets the simulator's request); from a completion to the next MPI_Start the request is
  // inactive, and completion calls treat it as MPI_REQUEST_NULL, though its handle stays valid.
  std::function<int(mpi::RequestPtr& request)> start;
  bool persistent = false;
  bool active = true;
  // Generalized requests (api_generalized_requests.cpp): the application's status, free and cancel callbacks.
  std::function<int(MPI_Status* status)> query;
  std::function<int()> release;
  std::function<int(bool complete)> cancel;
};

class Requests {
public:
  int add(RequestEntry entry) { return requests_.insert(std::move(entry)); }
  RequestEntry* find(int handle) { return requests_.find(handle); } // null when `handle` names no request
  void release(int handle) { requests_.erase(handle); }
  // MPI_ERR_REQUEST: "invalid request <handle>", through `comm`'s error handler.
  int raise_invalid(Runtime& runtime, int handle, int comm, const char* call) const
  {
    return requests_.raise_invalid(runtime, handle, comm, call);
  }

  // The handles of the requests still active (neither completed by a wait or test nor freed; persistent ones started
  // and not completed), in handle order, for each rank `wanted` accepts: what the warning about MPI_Finalize lists.
  // One scan of the table, however many ranks.
  std::map<int, std::vector<int>> pending_by_rank(const std::function<bool(int world_rank)>& wanted) const;
  // "send to rank 1, tag 5, on MPI_COMM_WORLD (not complete)": the request as a report names it.
  static std::string describe_pending(const RequestEntry& entry);
  // The simulator's requests `world_rank` made on communicator `comm` (point-to-point and collective) and has not
  // seen complete: what MPI_Comm_disconnect waits for. One scan of the table.
  std::vector<mpi::RequestPtr> unfinished_on(int world_rank, int comm) const;

  int add_message(mpi::MessagePtr message) { return messages_.insert(std::move(message)); }
  mpi::MessagePtr take_message(int handle); // null for an unknown handle

private:
  HandleTable<RequestEntry> requests_{{MPI_ERR_REQUEST, "request"}, 1};
  HandleTable<mpi::MessagePtr> messages_{{MPI_ERR_REQUEST, "message handle"}, 1};
};

} // namespace mpisim::online
