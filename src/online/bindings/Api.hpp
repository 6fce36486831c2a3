// What every C API file (api_*.cpp) needs: the scope of one MPI call, argument checks that raise MPI error classes
// through the communicator's error handler, and the profiling-interface aliases.
#pragma once

#include "online/runtime/Errors.hpp"
#include "online/runtime/Runtime.hpp"

#include "mpi/Rank.hpp"

#include <mpi.h>

#include <string>

namespace mpisim::online {

// One MPI call: the computation since the previous call is injected on entry, time inside is accounted on exit.
// `call` names the MPI function for the timeline: by default the function that opens the scope (PMPI_Send); helpers
// shared by several functions pass theirs on.
class ApiScope {
public:
  explicit ApiScope(const char* call = __builtin_FUNCTION()) : ApiScope(Runtime::get(), call) {}
  // The same, for a call that obtained its runtime before opening its scope (checks first, or a scope in a block).
  explicit ApiScope(Runtime& runtime, const char* call = __builtin_FUNCTION())
      : runtime_(runtime), world_rank_(runtime.enter_call(call)), rank_(runtime.world().rank(world_rank_))
  {
    rank_.enter_call(call); // what the rank's sends name in reports (mpi::Rank::enter_call)
  }
  ~ApiScope()
  {
    rank_.leave_call();
    runtime_.leave_call(world_rank_);
  }
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;

  Runtime& runtime() { return runtime_; }
  // The calling rank, found once when the call's scope opens (the call runs in its actor to the end).
  mpi::Rank& rank() { return rank_; }
  int world_rank() const { return world_rank_; }
  // What the timeline shows of the call, for those that know it: `peer` a rank of `comm` (negative: none, as
  // MPI_ANY_SOURCE), `bytes` the payload. Only the outermost call is reported.
  void describe(const mpi::Communicator* comm, int peer, double bytes, int tag = 0)
  {
    if (runtime_.call_reporter() != nullptr)
      describe_call(comm, peer, bytes, tag);
  }

private:
  void describe_call(const mpi::Communicator* comm, int peer, double bytes, int tag);

  Runtime& runtime_;
  int world_rank_;
  mpi::Rank& rank_;
};

// The body of an MPI call that may find a process failure or a revocation (mpi/Failures.hpp, thrown from below the C
// API): raised through the error handler of `comm`, or of the communicator it was found on (MPI_COMM_NULL).
template <class Body> int failure_aware(Runtime& runtime, MPI_Comm comm, const char* call, Body&& body)
{
  try {
    return body();
  } catch (const mpi::ProcessFailure& failure) {
    return raise_process_failure(runtime, comm, failure, call);
  }
}
} // namespace mpisim::online

// PMPI_name is the implementation; MPI_name a weak alias a profiling library may override.
#define MPISIM_ALIAS(name) extern "C" __attribute__((weak, alias("PMPI_" #name))) decltype(PMPI_##name) MPI_##name;

// Argument checks: `return` the raised error from the enclosing API function.
#define MPISIM_CHECK(runtime, condition, comm, error_class, what)                                                      \
  do {                                                                                                                 \
    if (not(condition))                                                                                                \
      return ::mpisim::online::raise_error(runtime, comm, error_class, __func__ + 1, what);                            \
  } while (0)
