// Completion calls. The TI format knows `wait src dst tag`, `test src dst tag` and `waitall` (which, in both
// replayers, waits for *every* request the rank has pending). They are written so that the replay completes exactly
// what the application completed:
//  - MPI_Wait, and each request MPI_Waitany/MPI_Waitsome completed: `wait` with the request's key;
//  - MPI_Waitall: `waitall` when its requests are all the rank has pending, otherwise one `wait` per request;
//  - a test call (MPI_Test, MPI_Testany, MPI_Testall, MPI_Testsome): one `test` line (on its first tracked request:
//    the replay charges the cost of one polling call), then a `wait` per request it found complete (the replay
//    then completes it at the same point; if the replayed `test` already did, the `wait` does nothing).
// SimGrid's writer emits `waitAny`, `testall`, `testany`, `testsome`, which its replay does not accept.
// Requests the recorder does not track (from calls without a TI action, or MPI_REQUEST_NULL) are skipped.
// Non-blocking file accesses (mpisim's MPI-IO extension) are completed by a `file_wait NAME N` each, whichever call
// completed them; a test that finds them pending writes nothing for them (the replay does not poll the storage).
#include "record/Export.hpp"
#include "record/Recorder.hpp"

#include <optional>
#include <unordered_map>
#include <vector>

using mpisim::record::Call;
using mpisim::record::Recorder;
using mpisim::record::StatusSlot;
using mpisim::record::TrackedRequest;

namespace {

// What the recorder knew about an array of requests before the PMPI call cleared completed handles.
struct Snapshot {
  std::vector<MPI_Request> handles;
  std::vector<bool> tracked;
  std::vector<bool> file; // a non-blocking file access
  int count = 0;          // tracked ones
  int first = -1;

  Snapshot(Recorder& rec, int n, const MPI_Request* requests)
      : handles(requests, requests + (n > 0 ? n : 0)), tracked(handles.size(), false), file(handles.size(), false)
  {
    // A shared handle (see RequestTable) may appear several times: it stands for as many tracked requests as are
    // queued under it, no more.
    std::unordered_map<MPI_Request, size_t> claimed;
    std::unordered_map<MPI_Request, size_t> claimed_files;
    for (size_t i = 0; i < handles.size(); ++i) {
      size_t available = rec.tracked(handles[i]);
      if (available > 0 && claimed[handles[i]]++ < available) {
        tracked[i] = true;
        ++count;
        if (first < 0)
          first = static_cast<int>(i);
      } else if (rec.file_requests(handles[i]) > claimed_files[handles[i]]) {
        file[i] = true;
        ++claimed_files[handles[i]];
      }
    }
  }

  // Request i completed: its `file_wait` if it is a file access.
  void file_completed(Recorder& rec, int i) const
  {
    if (i >= 0 && file[static_cast<size_t>(i)])
      rec.file_completed(handles[static_cast<size_t>(i)]);
  }
  void all_files_completed(Recorder& rec) const
  {
    for (size_t i = 0; i < handles.size(); ++i)
      file_completed(rec, static_cast<int>(i));
  }
};

// Statuses for PMPI when the application passed MPI_STATUSES_IGNORE.
class StatusArray {
public:
  StatusArray(MPI_Status* given, int n)
  {
    if (given == MPI_STATUSES_IGNORE) {
      local_.resize(static_cast<size_t>(n > 0 ? n : 1));
      use_ = local_.data();
    } else {
      use_ = given;
    }
  }
  MPI_Status* get() { return use_; }
  const MPI_Status* at(int i) const { return use_ + i; }

private:
  std::vector<MPI_Status> local_;
  MPI_Status* use_;
};

} // namespace

MPISIM_EXPORT int MPI_Wait(MPI_Request* request, MPI_Status* status)
{
  Call call("MPI_Wait");
  if (not call)
    return PMPI_Wait(request, status);
  MPI_Request handle = *request;
  std::optional<TrackedRequest> tracked = call.rec().active_request(handle);
  const bool file = not tracked && call.rec().file_requests(handle) > 0;
  StatusSlot slot(status);
  int rc = PMPI_Wait(request, slot.get());
  if (file && rc == MPI_SUCCESS)
    call.rec().file_completed(handle);
  if (tracked && rc == MPI_SUCCESS) {
    call.args.comm = tracked->comm->id;
    call.args.peer = tracked->receive ? tracked->src : tracked->dst;
    if (tracked->receive && tracked->any_source && (*slot).MPI_SOURCE >= 0)
      call.args.peer = tracked->comm->to_world((*slot).MPI_SOURCE);
    call.rec().completed(handle, slot.get());
  }
  return rc;
}

MPISIM_EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
  Call call("MPI_Waitall");
  if (not call)
    return PMPI_Waitall(count, requests, statuses);
  Recorder& rec = call.rec();
  Snapshot before(rec, count, requests);
  StatusArray status(statuses, count);
  int rc = PMPI_Waitall(count, requests, status.get());
  if (rc == MPI_SUCCESS)
    before.all_files_completed(rec);
  if (rc != MPI_SUCCESS || before.count == 0)
    return rc;
  bool everything = static_cast<size_t>(before.count) == rec.replay_pending();
  for (int i = 0; i < count; ++i)
    if (before.tracked[static_cast<size_t>(i)])
      rec.completed(before.handles[static_cast<size_t>(i)], status.at(i), everything);
  if (everything)
    rec.trace().begin("waitall").end();
  return rc;
}

MPISIM_EXPORT int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status)
{
  Call call("MPI_Waitany");
  if (not call)
    return PMPI_Waitany(count, requests, index, status);
  Recorder& rec = call.rec();
  Snapshot before(rec, count, requests);
  StatusSlot slot(status);
  int rc = PMPI_Waitany(count, requests, index, slot.get());
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
    before.file_completed(rec, *index);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED && before.tracked[static_cast<size_t>(*index)])
    rec.completed(before.handles[static_cast<size_t>(*index)], slot.get());
  return rc;
}

MPISIM_EXPORT int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[])
{
  Call call("MPI_Waitsome");
  if (not call)
    return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  Recorder& rec = call.rec();
  Snapshot before(rec, incount, requests);
  StatusArray status(statuses, incount);
  int rc = PMPI_Waitsome(incount, requests, outcount, indices, status.get());
  if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED) {
    for (int k = 0; k < *outcount; ++k)
      before.file_completed(rec, indices[k]);
    for (int k = 0; k < *outcount; ++k)
      if (before.tracked[static_cast<size_t>(indices[k])])
        rec.completed(before.handles[static_cast<size_t>(indices[k])], status.at(k));
  }
  return rc;
}

MPISIM_EXPORT int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status)
{
  Call call("MPI_Test");
  if (not call)
    return PMPI_Test(request, flag, status);
  Recorder& rec = call.rec();
  MPI_Request handle = *request;
  std::optional<TrackedRequest> tracked = rec.active_request(handle);
  const bool file = not tracked && rec.file_requests(handle) > 0;
  StatusSlot slot(status);
  int rc = PMPI_Test(request, flag, slot.get());
  if (file && rc == MPI_SUCCESS && *flag != 0)
    rec.file_completed(handle);
  if (tracked && rc == MPI_SUCCESS) {
    call.args.comm = tracked->comm->id;
    rec.test_line(handle);
    if (*flag != 0)
      rec.completed(handle, slot.get());
  }
  return rc;
}

MPISIM_EXPORT int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[])
{
  Call call("MPI_Testall");
  if (not call)
    return PMPI_Testall(count, requests, flag, statuses);
  Recorder& rec = call.rec();
  Snapshot before(rec, count, requests);
  StatusArray status(statuses, count);
  int rc = PMPI_Testall(count, requests, flag, status.get());
  if (rc == MPI_SUCCESS && *flag != 0)
    before.all_files_completed(rec);
  if (rc != MPI_SUCCESS || before.count == 0)
    return rc;
  rec.test_line(before.handles[static_cast<size_t>(before.first)]);
  if (*flag != 0) {
    for (int i = 0; i < count; ++i)
      if (before.tracked[static_cast<size_t>(i)])
        rec.completed(before.handles[static_cast<size_t>(i)], status.at(i));
  }
  return rc;
}

MPISIM_EXPORT int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status)
{
  Call call("MPI_Testany");
  if (not call)
    return PMPI_Testany(count, requests, index, flag, status);
  Recorder& rec = call.rec();
  Snapshot before(rec, count, requests);
  StatusSlot slot(status);
  int rc = PMPI_Testany(count, requests, index, flag, slot.get());
  if (rc == MPI_SUCCESS && *flag != 0 && *index != MPI_UNDEFINED)
    before.file_completed(rec, *index);
  if (rc != MPI_SUCCESS || before.count == 0)
    return rc;
  bool done = *flag != 0 && *index != MPI_UNDEFINED && before.tracked[static_cast<size_t>(*index)];
  rec.test_line(before.handles[static_cast<size_t>(done ? *index : before.first)]);
  if (done)
    rec.completed(before.handles[static_cast<size_t>(*index)], slot.get());
  return rc;
}

MPISIM_EXPORT int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[])
{
  Call call("MPI_Testsome");
  if (not call)
    return PMPI_Testsome(incount, requests, outcount, indices, statuses);
  Recorder& rec = call.rec();
  Snapshot before(rec, incount, requests);
  StatusArray status(statuses, incount);
  int rc = PMPI_Testsome(incount, requests, outcount, indices, status.get());
  if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED)
    for (int k = 0; k < *outcount; ++k)
      before.file_completed(rec, indices[k]);
  if (rc != MPI_SUCCESS || before.count == 0)
    return rc;
  rec.test_line(before.handles[static_cast<size_t>(before.first)]);
  if (*outcount != MPI_UNDEFINED) {
    for (int k = 0; k < *outcount; ++k)
      if (before.tracked[static_cast<size_t>(indices[k])])
        rec.completed(before.handles[static_cast<size_t>(indices[k])], status.at(k));
  }
  return rc;
}

MPISIM_EXPORT int MPI_Request_free(MPI_Request* request)
{
  Call call("MPI_Request_free");
  if (call) {
    if (call.rec().tracked(*request) == 0 && call.rec().file_requests(*request) > 0)
      call.rec().file_freed(*request);
    else
      call.rec().request_freed(*request);
  }
  return PMPI_Request_free(request);
}
