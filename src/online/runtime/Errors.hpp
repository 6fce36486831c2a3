// Raising MPI error classes through the error handler of a communicator or window, and ending a run.
#pragma once

#include "online/runtime/RunEnd.hpp"

#include <string>

namespace mpisim::online {

const char* error_class_name(int error_class);

// Raises `error_class` on `comm` (MPI_COMM_WORLD's handler when `comm` is not valid): with MPI_ERRORS_RETURN the
// class is returned; with MPI_ERRORS_ARE_FATAL the run ends with a report naming the rank, the call and the value.
int raise_error(int comm, int error_class, const char* call, const std::string& what);
// The same through error handler `handler` of the communicator or window `object` (what a user handler is given).
int raise_through_handler(int handler, int object, int error_class, const char* call, const std::string& what);

// Ends the whole run now: flushes the application's output, prints the report on stderr, lets the runner write its
// summary (Runtime::set_run_end), exits with the end's status.
[[noreturn]] void terminate_run(const RunEnd& end);
// A fatal MPI error of the calling rank (Outcome::MpiError): `what` follows "mpisim: rank R: ", the date after it.
[[noreturn]] void terminate_on_mpi_error(const std::string& what);

} // namespace mpisim::online
