// Command line of mpisim-run (the native runner behind `mpisim run`).
#pragma once

#include "online/Runtime.hpp"
#include "online/runner/PrivatizedProgram.hpp"

#include "timeline/TimelineWriter.hpp"

#include <string>
#include <vector>

namespace mpisim::online {

struct RunnerOptions {
  int ranks = -1; // -np; default: the number of hostfile entries, else 1
  mpi::SimulationOptions simulation;
  OnlineOptions online;
  bool host_speed_given = false;
  std::string program;            // the application, built by `mpisim cc` as a shared object
  std::vector<std::string> arguments;
  std::string tmpdir;             // where the per-rank copies go (default: $TMPDIR or /tmp)
  Privatization privatization = Privatization::Auto; // --privatization auto|dlopen|swap
  bool json = false;              // summary as JSON
  std::string summary_file;       // summary there instead of stderr
  bool quiet = false;             // no summary
  bool tag_output = false;        // prefix each line of the application's stdout with its rank
  bool help = false;              // --help: print the usage and stop
  // --timeline FILE (path empty: none), --timeline-internals, --timeline-links; --timeline-format NAME (empty: by
  // the file's extension).
  timeline::TimelineOptions timeline;
  std::string timeline_format;
};

// Throws InputError on bad options. Options stop at the program's path: what follows belongs to the application.
RunnerOptions parse_runner_options(int argc, char** argv);
const char* runner_usage();

} // namespace mpisim::online
