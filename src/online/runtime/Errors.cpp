#include "online/runtime/Errors.hpp"

#include "common/Errors.hpp"
#include "online/objects/ProcessObjects.hpp"
#include "online/runtime/CallReporter.hpp"
#include "online/runtime/ErrorClasses.hpp"
#include "online/runtime/Runtime.hpp"

#include <mpi-ext.h>
#include <mpi.h>

#include <cstdio>
#include <unistd.h>

namespace mpisim::online {

const char* error_class_name(int error_class)
{
  constexpr int known = static_cast<int>(sizeof kErrorClasses / sizeof kErrorClasses[0]);
  if (error_class >= 0 && error_class < known)
    return kErrorClasses[error_class].name;
  return "MPI_ERR_UNKNOWN";
}

int raise_through_handler(Runtime& runtime, int handler, int object, int error_class, const char* call,
                          const std::string& what)
{
  if (handler == MPI_ERRORS_RETURN)
    return error_class;
  if (UserErrhandler* user = runtime.process_objects().errhandler(handler)) {
    // The handler sees copies: what it does to them does not change what the call returns.
    int handle = object;
    int code = error_class;
    user->function(&handle, &code);
    return error_class;
  }
  // Classes the application added (MPI_Add_error_class) have no standard name.
  const std::string name =
      error_class > MPI_ERR_LASTCODE ? "error class " + std::to_string(error_class) : error_class_name(error_class);
  terminate_on_mpi_error(runtime, std::string(call) + ": " + name + ": " + what);
}

int raise_error(Runtime& runtime, int comm, int error_class, const char* call, const std::string& what)
{
  const int me = runtime.current_rank();
  if (runtime.communicators().find(comm, me) == nullptr)
    comm = MPI_COMM_WORLD;
  return raise_through_handler(runtime, runtime.communicators().errhandler(me, comm), comm, error_class, call, what);
}

const char* outcome_name(Outcome outcome)
{
  switch (outcome) {
  case Outcome::Ok: return "ok";
  case Outcome::ApplicationExit: return "application-exit";
  case Outcome::Abort: return "abort";
  case Outcome::Crash: return "crash";
  case Outcome::MpiError: return "mpi-error";
  case Outcome::Deadlock: return "deadlock";
  case Outcome::ProcessFailure: return "process-failure";
  case Outcome::Failure: return "failure";
  case Outcome::BadInput: return "bad-input";
  }
  return "failure";
}

void terminate_run(const RunEnd& end)
{
  // The one place below the entry points that reaches the global runtime: a run ends from anywhere (a rank's error,
  // the runner's handlers), and before a runtime exists (bad input) there is none.
  Runtime* runtime = Runtime::active() ? &Runtime::get() : nullptr;
  if (runtime != nullptr)
    runtime->end_output();
  if (runtime != nullptr && runtime->call_reporter() != nullptr) // the timeline shows the run up to here
    runtime->call_reporter()->abrupt_end();
  std::fflush(nullptr);
  const std::string line = printable_text(end.report) + "\n"; // it may quote the program's or an input's bytes
  [[maybe_unused]] ssize_t written = write(STDERR_FILENO, line.data(), line.size());
  if (runtime != nullptr) {
    runtime->run_ended(end);
    runtime->discard_temporary_files();
  }
  _exit(end.exit_status);
}

int error_class_of(const mpi::ProcessFailure& failure)
{
  return failure.kind() == mpi::FailureKind::Revoked ? MPIX_ERR_REVOKED : MPIX_ERR_PROC_FAILED;
}

int raise_process_failure(Runtime& runtime, int comm, const mpi::ProcessFailure& failure, const char* call)
{
  const int me = runtime.current_rank();
  if (comm == MPI_COMM_NULL)
    comm = runtime.communicators().handle_of_context(failure.context());
  if (runtime.communicators().find(comm, me) == nullptr)
    comm = MPI_COMM_WORLD;
  const int handler = runtime.communicators().errhandler(me, comm);
  const int error_class = error_class_of(failure);
  if (handler == MPI_ERRORS_RETURN)
    return error_class;
  if (UserErrhandler* user = runtime.process_objects().errhandler(handler)) {
    int handle = comm;
    int code = error_class;
    user->function(&handle, &code);
    return error_class;
  }
  terminate_on_process_failure(failure, call);
}

void terminate_on_process_failure(const mpi::ProcessFailure& failure, const char* call)
{
  const std::string where = call != nullptr ? std::string(call) + ": " : std::string();
  terminate_run({.outcome = Outcome::ProcessFailure,
                 .exit_status = kExitProcessFailure,
                 .application_status = std::nullopt,
                 .report = "mpisim: rank " + std::to_string(failure.detector()) + ": " + where +
                           error_class_name(error_class_of(failure)) + ": " + failure.what() +
                           " (MPI_ERRORS_ARE_FATAL: the job is aborted)"});
}

void terminate_on_mpi_error(Runtime& runtime, const std::string& what)
{
  char date[64];
  std::snprintf(date, sizeof date, "%.9f", runtime.now());
  terminate_run({.outcome = Outcome::MpiError,
                 .exit_status = kExitMpiError,
                 .application_status = std::nullopt,
                 .report = "mpisim: rank " + std::to_string(runtime.current_rank()) + ": " + what +
                           " (simulated time " + date + " s)"});
}

} // namespace mpisim::online
