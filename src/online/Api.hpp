// What every C API file (api_*.cpp) needs: the scope of one MPI call, argument checks that raise MPI error classes
// through the communicator's error handler, and the profiling-interface aliases.
#pragma once

#include "online/Runtime.hpp"

#include "mpi/Rank.hpp"

#include <mpi.h>

#include <string>

namespace mpisim::online {

// One MPI call: the computation since the previous call is injected on entry, time inside is accounted on exit.
// `call` names the MPI function for the timeline: by default the function that opens the scope (PMPI_Send); helpers
// shared by several functions pass theirs on.
class ApiScope {
public:
  explicit ApiScope(const char* call = __builtin_FUNCTION()) : runtime_(Runtime::get()) { runtime_.enter_call(call); }
  ~ApiScope() { runtime_.leave_call(); }
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;

  Runtime& runtime() { return runtime_; }
  mpi::Rank& rank() { return runtime_.rank(); }
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
};

const char* error_class_name(int error_class);

// Raises `error_class` on `comm` (MPI_COMM_WORLD's handler when `comm` is not valid): with MPI_ERRORS_RETURN the
// class is returned; with MPI_ERRORS_ARE_FATAL the run ends with a report naming the rank, the call and the value.
int raise_error(int comm, int error_class, const char* call, const std::string& what);
// The same through error handler `handler` of the communicator or window `object` (what a user handler is given).
int raise_through_handler(int handler, int object, int error_class, const char* call, const std::string& what);

// Ends the whole run now: flushes the application's output, prints `report` on stderr, exits with `status`.
[[noreturn]] void terminate_run(const std::string& report, int status);

} // namespace mpisim::online

// PMPI_name is the implementation; MPI_name a weak alias a profiling library may override.
#define MPISIM_ALIAS(name)                                                                                           \
  extern "C" __attribute__((weak, alias("PMPI_" #name))) decltype(PMPI_##name) MPI_##name;

// Argument checks: `return` the raised error from the enclosing API function.
#define MPISIM_CHECK(condition, comm, error_class, what)                                                             \
  do {                                                                                                               \
    if (not(condition))                                                                                              \
      return ::mpisim::online::raise_error(comm, error_class, __func__ + 1, what);                                  \
  } while (0)
