// Generalized requests (MPI-3.1 section 12.2): MPI_Grequest_start, MPI_Grequest_complete.
//
// The request is a simulator request no transfer completes: MPI_Grequest_complete completes it, so that every wait
// and test call treats it as any other (a wait on one never completed ends in a deadlock report naming it). Its
// status comes from the application's query callback, its end runs the free callback, MPI_Cancel the cancel one.
#include "online/bindings/Api.hpp"

#include "mpi/Request.hpp"

#include <memory>

using namespace mpisim::online;

extern "C" int PMPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                                   MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  MPISIM_CHECK(runtime, query_fn != nullptr && free_fn != nullptr && cancel_fn != nullptr, MPI_COMM_WORLD, MPI_ERR_ARG,
               "the query, free and cancel functions must be given");
  RequestEntry entry;
  const int me = runtime.current_rank();
  entry.request = std::make_shared<mpisim::mpi::Request>(mpisim::mpi::RequestKind::Generalized, me,
                                                         *runtime.comm(MPI_COMM_SELF), 0, 0, 0);
  entry.query = [query_fn, extra_state](MPI_Status* status) { return query_fn(extra_state, status); };
  entry.release = [free_fn, extra_state] { return free_fn(extra_state); };
  entry.cancel = [cancel_fn, extra_state](bool complete) { return cancel_fn(extra_state, complete ? 1 : 0); };
  *request = runtime.requests().add(std::move(entry));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Grequest_complete(MPI_Request request)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  RequestEntry* entry = request == MPI_REQUEST_NULL ? nullptr : runtime.requests().find(request);
  MPISIM_CHECK(runtime, entry != nullptr && entry->query, MPI_COMM_WORLD, MPI_ERR_REQUEST,
               "not a generalized request: " + std::to_string(request));
  MPISIM_CHECK(runtime, not entry->request->done(), MPI_COMM_WORLD, MPI_ERR_REQUEST,
               "generalized request completed twice");
  entry->request->complete();
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Grequest_start)
MPISIM_ALIAS(Grequest_complete)
