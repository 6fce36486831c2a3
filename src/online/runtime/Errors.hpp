// Raising MPI error classes through the error handler of a communicator or window, and ending a run.
#pragma once

#include <string>

namespace mpisim::online {

const char* error_class_name(int error_class);

// Raises `error_class` on `comm` (MPI_COMM_WORLD's handler when `comm` is not valid): with MPI_ERRORS_RETURN the
// class is returned; with MPI_ERRORS_ARE_FATAL the run ends with a report naming the rank, the call and the value.
int raise_error(int comm, int error_class, const char* call, const std::string& what);
// The same through error handler `handler` of the communicator or window `object` (what a user handler is given).
int raise_through_handler(int handler, int object, int error_class, const char* call, const std::string& what);

// Ends the whole run now: flushes the application's output, prints `report` on stderr, exits with `status`.
[[noreturn]] void terminate_run(const std::string& report, int status);

} // namespace mpisim::online
