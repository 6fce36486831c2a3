// The non-blocking requests a rank's trace names, by MPI handle.
#pragma once

#include "record/Communicators.hpp"
#include "record/Datatypes.hpp"

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>

namespace mpisim::record {

// A non-blocking point-to-point request the trace will name in `wait`/`test` lines: key (src, dst, tag) in world
// ranks, as SimGrid's replay stores requests (isend: self dst tag; irecv: src self tag).
struct TrackedRequest {
  bool receive = false;
  int src = 0;
  int dst = 0;
  int tag = 0;
  uint64_t serial = 0; // > 0 while the irecv's source or tag is a wildcard not yet resolved
  bool any_source = false;
  bool any_tag = false;
  std::shared_ptr<Communicator> comm;
  // Persistent requests (MPI_Send_init, MPI_Recv_init): what each MPI_Start posts.
  bool persistent = false;
  bool active = true;
  int peer = 0;       // in comm, may be MPI_ANY_SOURCE or MPI_PROC_NULL
  int posted_tag = 0; // may be MPI_ANY_TAG
  TiCount count{0, Datatypes::kByte};
};

// Tracked requests by handle. Handles are not always unique: MPI libraries give one shared handle to requests that
// are complete when created (Open MPI's ompi_request_empty, for MPI_PROC_NULL operations and for small sends that
// completed on the spot; MPICH's built-in complete requests). Requests sharing a handle queue up under it, oldest
// first. They are all complete already, so which of them a completion call is matched with only changes the order of
// their `wait` lines, never whether the replay may block.
class RequestTable {
public:
  void add(MPI_Request handle, TrackedRequest request)
  {
    if (handle != MPI_REQUEST_NULL)
      table_[handle].push_back(std::move(request));
  }

  // The oldest active request under this handle, or null.
  TrackedRequest* active(MPI_Request handle)
  {
    auto found = table_.find(handle);
    if (found == table_.end())
      return nullptr;
    for (TrackedRequest& request : found->second)
      if (request.active)
        return &request;
    return nullptr;
  }
  const TrackedRequest* active(MPI_Request handle) const { return const_cast<RequestTable*>(this)->active(handle); }

  size_t active_count(MPI_Request handle) const
  {
    if (handle == MPI_REQUEST_NULL)
      return 0;
    auto found = table_.find(handle);
    if (found == table_.end())
      return 0;
    size_t count = 0;
    for (const TrackedRequest& request : found->second)
      count += request.active ? 1 : 0;
    return count;
  }

  // A persistent request (there is only one under its handle), active or not.
  TrackedRequest* persistent(MPI_Request handle)
  {
    auto found = table_.find(handle);
    if (found == table_.end() || found->second.empty() || not found->second.front().persistent)
      return nullptr;
    return &found->second.front();
  }

  // The oldest active request under the handle completed: forgotten, or, if persistent, made inactive.
  void finish(MPI_Request handle)
  {
    auto found = table_.find(handle);
    if (found == table_.end())
      return;
    auto& requests = found->second;
    for (auto it = requests.begin(); it != requests.end(); ++it) {
      if (not it->active)
        continue;
      if (it->persistent)
        it->active = false;
      else
        requests.erase(it);
      break;
    }
    if (requests.empty())
      table_.erase(found);
  }

  // MPI_Request_free: a persistent request goes away; otherwise the oldest request under the handle.
  void free(MPI_Request handle)
  {
    auto found = table_.find(handle);
    if (found == table_.end())
      return;
    if (found->second.front().persistent)
      table_.erase(found);
    else
      finish(handle);
  }

private:
  std::unordered_map<MPI_Request, std::deque<TrackedRequest>> table_;
};

// Non-blocking file accesses (MPI_File_iwrite_at ...), by handle: the trace names each by its file and its number
// among the rank's non-blocking accesses to that file (`file_wait NAME N`). A handle may stand for several, oldest
// first, as above.
struct FileRequest {
  std::string file;
  long long number = 0;
};

class FileRequestTable {
public:
  void add(MPI_Request handle, FileRequest request)
  {
    if (handle != MPI_REQUEST_NULL)
      table_[handle].push_back(std::move(request));
  }
  size_t count(MPI_Request handle) const
  {
    auto found = table_.find(handle);
    return found == table_.end() ? 0 : found->second.size();
  }
  // The oldest request under the handle, removed; false if there is none.
  bool take(MPI_Request handle, FileRequest& out)
  {
    auto found = table_.find(handle);
    if (found == table_.end())
      return false;
    out = std::move(found->second.front());
    found->second.pop_front();
    if (found->second.empty())
      table_.erase(found);
    return true;
  }

private:
  std::unordered_map<MPI_Request, std::deque<FileRequest>> table_;
};

} // namespace mpisim::record
