// The recorder's settings, read once from the environment at MPI_Init and parsed into typed values there (the
// units grammar is mpisim's, i.e. SimGrid's: `2.5Gf`, `1us`).
//
//   MPISIM_TRACE_DIR          output folder (default `mpisim-trace`), created if missing
//   MPISIM_TRACE_COUNTER      `time` (thread CPU time, default) or `instructions` (hardware counter via perf events)
//   MPISIM_TRACE_SPEED        reference speed turning CPU seconds into flops (default 1Gf)
//   MPISIM_TRACE_MIN_COMPUTE  computation bursts shorter than this are not written (default 1us)
//   MPISIM_TRACE_QUIET        set (by `mpisim record`): rank 0 does not print the notes on stderr
//   MPISIM_TRACE_SUBCOMM      how collectives on sub-communicators are written: `world` (default, SimGrid's
//                             convention: as MPI_COMM_WORLD collectives) or `p2p` (as the point-to-point messages
//                             of a simple algorithm among the members, in world ranks)
#pragma once

#include <string>

namespace mpisim::record {

enum class Counter { CpuTime, Instructions };
enum class SubcommMode { World, PointToPoint };

struct Config {
  std::string directory = "mpisim-trace";
  Counter counter = Counter::CpuTime;
  double speed = 1e9;        // flop/s
  double min_compute = 1e-6; // seconds
  // Point-to-point by default: the TI format has no communicator, and writing a sub-communicator collective as a
  // MPI_COMM_WORLD one (SimGrid's convention) deadlocks its replay when only some ranks take part.
  SubcommMode subcomm = SubcommMode::PointToPoint;
  bool quiet = false;

  // Throws mpisim::InputError naming the variable and its value.
  static Config from_environment();
};

const char* counter_name(Counter counter);
const char* subcomm_mode_name(SubcommMode mode);

} // namespace mpisim::record
