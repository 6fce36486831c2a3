// How an online run ends: the outcome the JSON summary names, the process's exit status, the application's own
// status and mpisim's report. The convention (docs/online.md, "Exit status and reports"): the application's own
// statuses pass through unchanged, as under mpirun and smpirun (main's return, exit's argument, MPI_Abort's code,
// 128 + signal for a crash); mpisim's own verdicts take codes of their own, and the JSON summary's "outcome" tells
// every case apart, since an application may return any status too.
#pragma once

#include <optional>
#include <string>

namespace mpisim::online {

enum class Outcome {
  Ok,              // every rank's main returned 0
  ApplicationExit, // a rank's main returned non-zero, or a rank called exit()
  Abort,           // MPI_Abort
  Crash,           // a signal (a memory fault, a stack overflow, abort(), a failed assert)
  MpiError,        // an erroneous MPI call with MPI_ERRORS_ARE_FATAL, an MPI call outside MPI_Init..MPI_Finalize
  Deadlock,        // every rank left is blocked and nothing can wake them
  ProcessFailure,  // a rank detected a failed rank (--fail, --fail-mtbf) under MPI_ERRORS_ARE_FATAL
  Failure,         // mpisim itself failed
  BadInput,        // options, platform or program refused before the program runs
};

// The JSON summary's name of the outcome: "ok", "application-exit", "abort", "crash", "mpi-error", "deadlock",
// "process-failure", "failure", "bad-input".
const char* outcome_name(Outcome outcome);

// mpisim's own exit statuses. 2 is every mpisim command's for bad input (`mpisim replay` too); deadlock and failure
// take GNU coreutils' codes for a wrapper's own verdicts (`timeout`: 124 when the command did not finish, 125 when
// timeout itself failed), which applications seldom use, and which `mpisim replay` uses too. A fatal MPI error ends
// the run with 1, as an MPI library ends a process on one.
constexpr int kExitBadInput = 2;
constexpr int kExitDeadlock = 124;
constexpr int kExitFailure = 125;
constexpr int kExitMpiError = 1;
// A job aborted by a process failure (a rank communicated with a failed one under MPI_ERRORS_ARE_FATAL): 4, as the
// issue that brought failure injection asked; "outcome": "process-failure" tells it from an application's own 4.
constexpr int kExitProcessFailure = 4;

struct RunEnd {
  Outcome outcome = Outcome::Ok;
  int exit_status = 0;
  std::optional<int> application_status; // main's return, exit's argument, MPI_Abort's code (none: a crash, ...)
  std::string report;                    // mpisim's report (empty when all went well)
};

} // namespace mpisim::online
