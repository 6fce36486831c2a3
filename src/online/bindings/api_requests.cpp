// Completion: MPI_Wait/Waitall/Waitany/Waitsome, MPI_Test/Testall/Testany/Testsome, MPI_Request_get_status,
// MPI_Request_free, MPI_Cancel.
//
// A handle is null (MPI_REQUEST_NULL), inactive (a persistent request not started), or active. Completion calls
// treat null and inactive handles alike: they complete at once with an empty status, and the "any"/"some" calls
// skip them (MPI_UNDEFINED when all are). Completing an active request fills its status, runs its completion action
// (unpacking a non-blocking collective's result), then frees its handle, or makes a persistent one inactive.
// A request that fails (a truncated receive, a posted file access the file system refused) is raised by the completion
// call through its own object's error handler (its communicator's, file's or window's: RequestEntry::owner); the calls
// on arrays return MPI_ERR_IN_STATUS, each status's MPI_ERROR telling which, raised through the first failed one's.
#include "online/bindings/FileArguments.hpp"
#include "online/bindings/PointToPoint.hpp"
#include "online/bindings/WindowArguments.hpp"

#include <vector>

using namespace mpisim::online;
using mpisim::mpi::RequestPtr;

namespace {

RequestEntry* lookup(Runtime& runtime, MPI_Request handle)
{
  return handle == MPI_REQUEST_NULL ? nullptr : runtime.requests().find(handle);
}

bool is_active(const RequestEntry* entry)
{
  return entry != nullptr && entry->active;
}

// Active and complete: requests already complete when posted (null simulator request) or whose activity is done.
bool is_complete(const RequestEntry* entry)
{
  return is_active(entry) && (not entry->request || entry->request->done());
}

int invalid_request(Runtime& runtime, MPI_Request handle, const char* call)
{
  return runtime.requests().raise_invalid(runtime, handle, MPI_COMM_WORLD, call);
}

// Every handle of the array is null or a request of this runtime.
int check_requests(Runtime& runtime, int count, const MPI_Request requests[], const char* call)
{
  if (count < 0)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_COUNT, call, "negative count " + std::to_string(count));
  for (int i = 0; i < count; ++i)
    if (requests[i] != MPI_REQUEST_NULL && runtime.requests().find(requests[i]) == nullptr)
      return invalid_request(runtime, requests[i], call);
  return MPI_SUCCESS;
}

MPI_Status* status_at(MPI_Status statuses[], int i)
{
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

// Runs a request's completion action once (MPI_Request_get_status may see the request complete before the call
// that frees it).
void run_completion_action(RequestEntry& entry)
{
  if (not entry.on_complete)
    return;
  std::function<void()> action = std::move(entry.on_complete);
  entry.on_complete = nullptr;
  action();
}

// How a completed request ended: its error class (MPI_SUCCESS), why, and whose error handler raises it.
struct Completion {
  int error = MPI_SUCCESS;
  std::string what;
  ErrorOwner owner;
};

// A callback's outcome: its error class, with why only when it failed (a success builds no text).
Completion callback_outcome(int error, const char* why, const ErrorOwner& owner)
{
  return {error, error == MPI_SUCCESS ? std::string{} : std::string{why}, owner};
}

// The request's failure: a truncated receive, or one its operation found after the call returned.
Completion failure_of(const RequestEntry& entry)
{
  if (entry.request && entry.request->status.truncated)
    return {MPI_ERR_TRUNCATE, "a received message was larger than its buffer", entry.owner};
  if (entry.late_failure && entry.late_failure->error_class != MPI_SUCCESS)
    return {entry.late_failure->error_class, entry.late_failure->what, entry.owner};
  return {MPI_SUCCESS, {}, entry.owner};
}

// A generalized request's status comes from its query callback; its error is the request's own.
Completion fill_request_status(const RequestEntry& entry, MPI_Status* status)
{
  if (entry.query) {
    MPI_Status filled{};
    const int error = entry.query(&filled);
    if (status != MPI_STATUS_IGNORE)
      *status = filled;
    return callback_outcome(error, "the generalized request's query function returned an error", entry.owner);
  }
  if (entry.request && entry.request->kind() != mpisim::mpi::RequestKind::Collective)
    fill_status(status, entry.request->status);
  else
    fill_empty_status(status);
  Completion failed = failure_of(entry);
  if (status != MPI_STATUS_IGNORE)
    status->MPI_ERROR = failed.error;
  return failed;
}

// Finishes an active, complete request: its status, its completion action, its handle. Returns how the request
// ended, not raised.
Completion finish(Runtime& runtime, MPI_Request* handle, MPI_Status* status)
{
  RequestEntry& entry = *runtime.requests().find(*handle);
  Completion outcome = fill_request_status(entry, status);
  run_completion_action(entry);
  if (entry.release && outcome.error == MPI_SUCCESS) // a generalized request is freed by its free callback
    outcome =
        callback_outcome(entry.release(), "the generalized request's free function returned an error", entry.owner);
  if (entry.persistent) {
    entry.active = false;
    entry.request = nullptr;
  } else {
    runtime.requests().release(*handle);
    *handle = MPI_REQUEST_NULL;
  }
  return outcome;
}

// Raises a completed request's failure through the error handler of the object it belongs to.
int raise_failure(Runtime& runtime, const Completion& outcome, const char* call)
{
  if (outcome.error == MPI_SUCCESS)
    return MPI_SUCCESS;
  const int handle = outcome.owner.handle;
  switch (outcome.owner.kind) {
  case ErrorOwner::Kind::File: return raise_file_error(runtime, handle, outcome.error, call, outcome.what);
  case ErrorOwner::Kind::Window: return raise_window_error(runtime, handle, outcome.error, call, outcome.what);
  case ErrorOwner::Kind::Communicator: break;
  }
  return raise_error(runtime, handle, outcome.error, call, outcome.what);
}

// The outcome of a call on an array: MPI_ERR_IN_STATUS, raised through the first failed request's handler.
void note_failure(Completion& all, const Completion& one)
{
  if (one.error == MPI_SUCCESS || all.error != MPI_SUCCESS)
    return;
  all = {MPI_ERR_IN_STATUS, "a request failed (see the statuses' MPI_ERROR): " + one.what, one.owner};
}

// The simulator's requests of the active handles not complete yet, with their positions in the array.
void pending_requests(Runtime& runtime, int count, const MPI_Request requests[], std::vector<RequestPtr>& pending,
                      std::vector<int>& positions)
{
  for (int i = 0; i < count; ++i) {
    RequestEntry* entry = lookup(runtime, requests[i]);
    if (is_active(entry) && entry->request && not entry->request->done()) {
      pending.push_back(entry->request);
      positions.push_back(i);
    }
  }
}

// The simulator's requests of the active handles (those complete when posted have none).
std::vector<RequestPtr> active_requests(Runtime& runtime, int count, const MPI_Request requests[])
{
  std::vector<RequestPtr> active;
  for (int i = 0; i < count; ++i)
    if (RequestEntry* entry = lookup(runtime, requests[i]); is_active(entry) && entry->request)
      active.push_back(entry->request);
  return active;
}

bool any_active(Runtime& runtime, int count, const MPI_Request requests[])
{
  for (int i = 0; i < count; ++i)
    if (is_active(lookup(runtime, requests[i])))
      return true;
  return false;
}

// Finishes every complete request of the array (MPI_Waitsome/MPI_Testsome): their indices and statuses, in array
// order. Returns MPI_ERR_IN_STATUS when one failed.
Completion finish_completed(ApiScope& scope, int count, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses[])
{
  Completion outcome;
  *outcount = 0;
  for (int i = 0; i < count; ++i) {
    RequestEntry* entry = lookup(scope.runtime(), requests[i]);
    if (not is_complete(entry))
      continue;
    if (entry->request)
      scope.rank().wait(*entry->request); // complete already: pays the receive overhead, if any
    MPI_Status* status = status_at(statuses, *outcount);
    note_failure(outcome, finish(scope.runtime(), &requests[i], status));
    indices[(*outcount)++] = i;
  }
  return outcome;
}

// Finishes every request of the array once all are complete (MPI_Waitall/MPI_Testall).
Completion finish_all(Runtime& runtime, int count, MPI_Request requests[], MPI_Status statuses[])
{
  Completion outcome;
  for (int i = 0; i < count; ++i) {
    MPI_Status* status = status_at(statuses, i);
    if (not is_active(lookup(runtime, requests[i])))
      fill_inactive_status(status);
    else
      note_failure(outcome, finish(runtime, &requests[i], status));
  }
  return outcome;
}

} // namespace

int mpisim::online::wait_one(Runtime& runtime, MPI_Request* request, MPI_Status* status, const char* call)
{
  return failure_aware(runtime, MPI_COMM_NULL, call, [&]() -> int {
    ApiScope scope(runtime, call);
    RequestEntry* entry = lookup(scope.runtime(), *request);
    if (entry == nullptr && *request != MPI_REQUEST_NULL)
      return invalid_request(runtime, *request, call);
    if (not is_active(entry)) {
      fill_inactive_status(status);
      return MPI_SUCCESS;
    }
    if (entry->request)
      scope.rank().wait(*entry->request);
    return raise_failure(runtime, finish(scope.runtime(), request, status), call);
  });
}

extern "C" int PMPI_Wait(MPI_Request* request, MPI_Status* status)
{
  return wait_one(Runtime::get(), request, status);
}

int mpisim::online::wait_all(Runtime& runtime, int count, MPI_Request requests[], MPI_Status statuses[],
                             const char* call)
{
  return failure_aware(runtime, MPI_COMM_NULL, call, [&]() -> int {
    ApiScope scope(runtime, call);
    MPISIM_TRY(check_requests(scope.runtime(), count, requests, "MPI_Waitall"));
    std::vector<RequestPtr> pending;
    for (int i = 0; i < count; ++i) {
      RequestEntry* entry = lookup(scope.runtime(), requests[i]);
      if (is_active(entry) && entry->request)
        pending.push_back(entry->request);
    }
    scope.rank().waitall(pending);
    return raise_failure(runtime, finish_all(scope.runtime(), count, requests, statuses), "MPI_Waitall");
  });
}

extern "C" int PMPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
  Runtime& runtime = Runtime::get();
  return wait_all(runtime, count, requests, statuses);
}

extern "C" int PMPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, MPI_COMM_NULL, "MPI_Waitany", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Waitany");
    MPISIM_TRY(check_requests(scope.runtime(), count, requests, "MPI_Waitany"));
    *index = MPI_UNDEFINED;
    for (int i = 0; i < count && *index == MPI_UNDEFINED; ++i)
      if (is_complete(lookup(scope.runtime(), requests[i])))
        *index = i;
    if (*index == MPI_UNDEFINED) {
      std::vector<RequestPtr> pending;
      std::vector<int> positions;
      pending_requests(scope.runtime(), count, requests, pending, positions);
      if (pending.empty()) {
        fill_inactive_status(status);
        return MPI_SUCCESS;
      }
      *index = positions[scope.rank().waitany(pending)];
    } else if (RequestEntry* entry = lookup(scope.runtime(), requests[*index]); entry->request) {
      scope.rank().wait(*entry->request);
    }
    return raise_failure(runtime, finish(scope.runtime(), &requests[*index], status), "MPI_Waitany");
  });
}

extern "C" int PMPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[])
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, MPI_COMM_NULL, "MPI_Waitsome", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Waitsome");
    MPISIM_TRY(check_requests(scope.runtime(), incount, requests, "MPI_Waitsome"));
    if (not any_active(scope.runtime(), incount, requests)) {
      *outcount = MPI_UNDEFINED;
      return MPI_SUCCESS;
    }
    bool some_complete = false;
    for (int i = 0; i < incount && not some_complete; ++i)
      some_complete = is_complete(lookup(scope.runtime(), requests[i]));
    if (not some_complete) {
      std::vector<RequestPtr> pending;
      std::vector<int> positions;
      pending_requests(scope.runtime(), incount, requests, pending, positions);
      scope.rank().waitany(pending);
    }
    return raise_failure(runtime, finish_completed(scope, incount, requests, outcount, indices, statuses),
                         "MPI_Waitsome");
  });
}

extern "C" int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, MPI_COMM_NULL, "MPI_Test", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Test");
    RequestEntry* entry = lookup(scope.runtime(), *request);
    if (entry == nullptr && *request != MPI_REQUEST_NULL)
      return invalid_request(runtime, *request, "MPI_Test");
    if (not is_active(entry)) {
      if (entry != nullptr) // a persistent request not started: a test all the same (a null handle costs nothing)
        scope.rank().test_inactive();
      *flag = 1;
      fill_inactive_status(status);
      return MPI_SUCCESS;
    }
    *flag = not entry->request || scope.rank().test(*entry->request);
    if (not *flag)
      return MPI_SUCCESS;
    return raise_failure(runtime, finish(scope.runtime(), request, status), "MPI_Test");
  });
}

extern "C" int PMPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[])
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, MPI_COMM_NULL, "MPI_Testall", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Testall");
    MPISIM_TRY(check_requests(scope.runtime(), count, requests, "MPI_Testall"));
    *flag = scope.rank().testall(active_requests(scope.runtime(), count, requests));
    if (not *flag)
      return MPI_SUCCESS;
    return raise_failure(runtime, finish_all(scope.runtime(), count, requests, statuses), "MPI_Testall");
  });
}

extern "C" int PMPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status)
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, MPI_COMM_NULL, "MPI_Testany", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Testany");
    MPISIM_TRY(check_requests(scope.runtime(), count, requests, "MPI_Testany"));
    *index = MPI_UNDEFINED;
    *flag = 0;
    if (not any_active(scope.runtime(), count, requests)) {
      *flag = 1;
      fill_inactive_status(status);
      return MPI_SUCCESS;
    }
    for (int i = 0; i < count && *index == MPI_UNDEFINED; ++i) {
      RequestEntry* entry = lookup(scope.runtime(), requests[i]);
      if (is_active(entry) && not entry->request)
        *index = i; // complete when posted (MPI_PROC_NULL, buffered send)
    }
    if (*index == MPI_UNDEFINED) {
      std::vector<RequestPtr> active;
      std::vector<int> positions;
      for (int i = 0; i < count; ++i) {
        RequestEntry* entry = lookup(scope.runtime(), requests[i]);
        if (is_active(entry)) {
          active.push_back(entry->request);
          positions.push_back(i);
        }
      }
      const std::optional<size_t> done = scope.rank().testany(active);
      if (not done)
        return MPI_SUCCESS;
      *index = positions[*done];
    }
    *flag = 1;
    return raise_failure(runtime, finish(scope.runtime(), &requests[*index], status), "MPI_Testany");
  });
}

extern "C" int PMPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[])
{
  Runtime& runtime = Runtime::get();
  return failure_aware(runtime, MPI_COMM_NULL, "MPI_Testsome", [&]() -> int {
    ApiScope scope(runtime, "PMPI_Testsome");
    MPISIM_TRY(check_requests(scope.runtime(), incount, requests, "MPI_Testsome"));
    if (not any_active(scope.runtime(), incount, requests)) {
      *outcount = MPI_UNDEFINED;
      return MPI_SUCCESS;
    }
    scope.rank().testsome(active_requests(scope.runtime(), incount, requests));
    return raise_failure(runtime, finish_completed(scope, incount, requests, outcount, indices, statuses),
                         "MPI_Testsome");
  });
}

extern "C" int PMPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  RequestEntry* entry = lookup(runtime, request);
  if (entry == nullptr && request != MPI_REQUEST_NULL)
    return invalid_request(runtime, request, "MPI_Request_get_status");
  if (not is_active(entry)) {
    *flag = 1;
    fill_inactive_status(status);
    return MPI_SUCCESS;
  }
  *flag = not entry->request || scope.rank().test(*entry->request);
  if (*flag) {
    fill_request_status(*entry, status);
    run_completion_action(*entry);
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Request_free(MPI_Request* request)
{
  Runtime& runtime = Runtime::get();
  if (lookup(runtime, *request) == nullptr)
    return invalid_request(runtime, *request, "MPI_Request_free");
  // An active operation still completes (the simulator holds its own reference), persistent or not. A generalized
  // request's free callback runs now, complete or not (MPI would wait for MPI_Grequest_complete).
  RequestEntry* entry = lookup(runtime, *request);
  const int error = entry->release ? entry->release() : MPI_SUCCESS;
  runtime.requests().release(*request);
  *request = MPI_REQUEST_NULL;
  return error;
}

extern "C" int PMPI_Cancel(MPI_Request* request)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  RequestEntry* entry = lookup(runtime, *request);
  if (entry == nullptr)
    return invalid_request(runtime, *request, "MPI_Cancel");
  if (not is_active(entry) || not entry->request)
    return MPI_SUCCESS; // nothing in progress: a complete request completes normally
  if (entry->cancel)    // a generalized request: the application cancels it, told whether it is complete
    return entry->cancel(entry->request->done());
  if (entry->request->kind() == mpisim::mpi::RequestKind::Collective)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel",
                       "a non-blocking collective cannot be cancelled");
  // Matched already: the operation completes normally, and MPI_Test_cancelled says false.
  scope.rank().cancel(*entry->request);
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Wait)
MPISIM_ALIAS(Waitall)
MPISIM_ALIAS(Waitany)
MPISIM_ALIAS(Waitsome)
MPISIM_ALIAS(Test)
MPISIM_ALIAS(Testall)
MPISIM_ALIAS(Testany)
MPISIM_ALIAS(Testsome)
MPISIM_ALIAS(Request_get_status)
MPISIM_ALIAS(Request_free)
MPISIM_ALIAS(Cancel)
