// Completion: MPI_Wait/Waitall/Waitany/Test/Testall/Request_free.
#include "online/Arguments.hpp"

#include <vector>

using namespace mpisim::online;

namespace {

// Finishes a completed request: its status, its completion action (unpacking a collective's result), its handle.
int complete(Runtime& runtime, MPI_Request* handle, MPI_Status* status)
{
  RequestEntry* entry = runtime.request(*handle);
  int error = MPI_SUCCESS;
  if (entry->request && entry->request->kind() != mpisim::mpi::RequestKind::Collective) {
    fill_status(status, entry->request->status);
    if (entry->request->status.truncated)
      error = MPI_ERR_TRUNCATE;
  } else {
    fill_empty_status(status);
  }
  if (entry->on_complete)
    entry->on_complete();
  runtime.release_request(*handle);
  *handle = MPI_REQUEST_NULL;
  return error;
}

RequestEntry* lookup(Runtime& runtime, MPI_Request handle)
{
  return handle == MPI_REQUEST_NULL ? nullptr : runtime.request(handle);
}

int invalid_request(MPI_Request handle, const char* call)
{
  return raise_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "invalid request " + std::to_string(handle));
}

int truncated(int error, const char* call)
{
  if (error == MPI_SUCCESS)
    return error;
  return raise_error(MPI_COMM_WORLD, error, call, "a received message was larger than its buffer");
}

} // namespace

extern "C" int PMPI_Wait(MPI_Request* request, MPI_Status* status)
{
  ApiScope scope;
  RequestEntry* entry = lookup(scope.runtime(), *request);
  if (entry == nullptr) {
    if (*request != MPI_REQUEST_NULL)
      return invalid_request(*request, "MPI_Wait");
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  if (entry->request)
    scope.rank().wait(*entry->request);
  return truncated(complete(scope.runtime(), request, status), "MPI_Wait");
}

extern "C" int PMPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
  ApiScope scope;
  std::vector<mpisim::mpi::RequestPtr> pending;
  for (int i = 0; i < count; ++i) {
    RequestEntry* entry = lookup(scope.runtime(), requests[i]);
    if (entry == nullptr && requests[i] != MPI_REQUEST_NULL)
      return invalid_request(requests[i], "MPI_Waitall");
    if (entry && entry->request)
      pending.push_back(entry->request);
  }
  scope.rank().waitall(pending);
  int error = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    MPI_Status* status = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    if (requests[i] == MPI_REQUEST_NULL)
      fill_empty_status(status);
    else if (complete(scope.runtime(), &requests[i], status) != MPI_SUCCESS)
      error = MPI_ERR_IN_STATUS;
  }
  return truncated(error, "MPI_Waitall");
}

extern "C" int PMPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status)
{
  ApiScope scope;
  std::vector<mpisim::mpi::RequestPtr> pending;
  std::vector<int> positions;
  for (int i = 0; i < count; ++i) {
    RequestEntry* entry = lookup(scope.runtime(), requests[i]);
    if (entry == nullptr && requests[i] != MPI_REQUEST_NULL)
      return invalid_request(requests[i], "MPI_Waitany");
    if (entry == nullptr)
      continue;
    if (not entry->request) { // already complete (MPI_PROC_NULL)
      *index = i;
      return complete(scope.runtime(), &requests[i], status);
    }
    pending.push_back(entry->request);
    positions.push_back(i);
  }
  if (pending.empty()) {
    *index = MPI_UNDEFINED;
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  *index = positions[scope.rank().waitany(pending)];
  return truncated(complete(scope.runtime(), &requests[*index], status), "MPI_Waitany");
}

extern "C" int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status)
{
  ApiScope scope;
  RequestEntry* entry = lookup(scope.runtime(), *request);
  if (entry == nullptr) {
    if (*request != MPI_REQUEST_NULL)
      return invalid_request(*request, "MPI_Test");
    *flag = 1;
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  *flag = not entry->request || scope.rank().test(*entry->request);
  if (not *flag)
    return MPI_SUCCESS;
  return truncated(complete(scope.runtime(), request, status), "MPI_Test");
}

extern "C" int PMPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[])
{
  ApiScope scope;
  bool all_done = true;
  for (int i = 0; i < count; ++i) {
    RequestEntry* entry = lookup(scope.runtime(), requests[i]);
    if (entry == nullptr && requests[i] != MPI_REQUEST_NULL)
      return invalid_request(requests[i], "MPI_Testall");
    if (entry && entry->request && not scope.rank().test(*entry->request))
      all_done = false;
  }
  *flag = all_done;
  if (not all_done)
    return MPI_SUCCESS;
  int error = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    MPI_Status* status = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    if (requests[i] == MPI_REQUEST_NULL)
      fill_empty_status(status);
    else if (complete(scope.runtime(), &requests[i], status) != MPI_SUCCESS)
      error = MPI_ERR_IN_STATUS;
  }
  return truncated(error, "MPI_Testall");
}

extern "C" int PMPI_Request_free(MPI_Request* request)
{
  Runtime& runtime = Runtime::get();
  if (lookup(runtime, *request) == nullptr)
    return invalid_request(*request, "MPI_Request_free");
  runtime.release_request(*request); // the operation still completes: the simulator holds its own reference
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Wait)
MPISIM_ALIAS(Waitall)
MPISIM_ALIAS(Waitany)
MPISIM_ALIAS(Test)
MPISIM_ALIAS(Testall)
MPISIM_ALIAS(Request_free)
