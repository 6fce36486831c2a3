// Process failures (--fail, --fail-mtbf): when ranks fail, and what the ranks that communicate with a failed one see.
//
// A failed rank stops at once: its actor is killed, the messages it sent that had not fully arrived are never
// delivered (those that had stay receivable, as with ULFM). With detection on (online runs), an operation that
// involves a failed rank completes with an error, which Rank turns into a ProcessFailure exception: a receive from
// it (or from MPI_ANY_SOURCE on a communicator holding it, until the failure is acknowledged), a send to it, any
// collective on a communicator holding it; and an operation on a communicator the rank knows to be revoked. Without
// detection (replay), those operations never complete: the run ends as a deadlock naming the failures.
#pragma once

#include "common/Errors.hpp"
#include "kernel/Time.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::mpi {

struct FailureAt {
  int rank;
  double date;
};

// What the options ask for: explicit failures, and a per-rank mean time to failure (0: none) with its seed.
struct FailureOptions {
  std::vector<FailureAt> at; // --fail RANK@TIME,...
  double mtbf = 0;           // --fail-mtbf T: each rank's time to failure is exponential of mean T
  uint64_t seed = 1;         // --seed N
  bool any() const { return not at.empty() || mtbf > 0; }
};

// "3@1.5s,0@20ms": rank@time pairs, times in SimGrid's time units (a bare number is seconds). Throws InputError
// naming `option` for a malformed item or a negative time.
std::vector<FailureAt> parse_failure_list(std::string_view text, std::string_view option = "--fail");

// When each of `ranks` ranks fails first at or after `start` (kernel::kNever: not at all). Under an MTBF, rank r's
// failures are a Poisson process of rate 1/mtbf drawn from its own generator (seeded by the seed and r), so that a
// restarted attempt starting later sees the same future failures. Throws InputError for a rank out of range.
std::vector<double> failure_dates(const FailureOptions& options, int ranks, double start = 0);

// The kind of error an operation that involved a failure completes with.
enum class FailureKind : uint8_t { None, ProcessFailed, Revoked };

// An MPI operation of `detector` found the failure of `failed` (a world rank; -1 for a revocation without failure).
class ProcessFailure : public SimulationError {
public:
  ProcessFailure(FailureKind kind, int failed, double failed_at, int detector, double detected_at,
                 std::string comm_name, int context);
  FailureKind kind() const { return kind_; }
  int failed_rank() const { return failed_; }
  double failed_at() const { return failed_at_; }
  int detector() const { return detector_; }
  double detected_at() const { return detected_at_; }
  const std::string& comm_name() const { return comm_name_; }
  int context() const { return context_; }

private:
  FailureKind kind_;
  int failed_;
  double failed_at_;
  int detector_;
  double detected_at_;
  std::string comm_name_;
  int context_;
};

// "0.500000000": the dates of failure reports.
std::string failure_date_text(double seconds);

} // namespace mpisim::mpi
