// Raising MPI error classes through the error handler of a communicator or window, and ending a run.
#pragma once

#include "online/runtime/RunEnd.hpp"

#include "mpi/Failures.hpp"

#include <string>

namespace mpisim::online {

class Runtime;

const char* error_class_name(int error_class);

// Raises `error_class` on `comm` (MPI_COMM_WORLD's handler when `comm` is not valid): with MPI_ERRORS_RETURN the
// class is returned; with MPI_ERRORS_ARE_FATAL the run ends with a report naming the rank, the call and the value.
int raise_error(Runtime& runtime, int comm, int error_class, const char* call, const std::string& what);
// The same through error handler `handler` of the communicator or window `object` (what a user handler is given).
int raise_through_handler(Runtime& runtime, int handler, int object, int error_class, const char* call,
                          const std::string& what);

// A process failure or a revocation an MPI call found (mpi/Failures.hpp), raised through the error handler of `comm`
// (MPI_COMM_NULL: of the communicator it was found on): MPIX_ERR_PROC_FAILED or MPIX_ERR_REVOKED returned, a user
// handler called, or under MPI_ERRORS_ARE_FATAL the job aborted (terminate_on_process_failure).
int error_class_of(const mpi::ProcessFailure& failure);
int raise_process_failure(Runtime& runtime, int comm, const mpi::ProcessFailure& failure, const char* call);
// Outcome::ProcessFailure, exit status 4: the failed rank, its date, the rank that found it and when (`call`: where,
// null when unknown).
[[noreturn]] void terminate_on_process_failure(const mpi::ProcessFailure& failure, const char* call);

// Ends the whole run now: flushes the application's output, prints the report on stderr, lets the runner write its
// summary (Runtime::set_run_end), exits with the end's status.
[[noreturn]] void terminate_run(const RunEnd& end);
// A fatal MPI error of the calling rank (Outcome::MpiError): `what` follows "mpisim: rank R: ", the date after it.
[[noreturn]] void terminate_on_mpi_error(Runtime& runtime, const std::string& what);

} // namespace mpisim::online
