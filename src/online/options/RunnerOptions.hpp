// Command line of mpisim-run (the native runner behind `mpisim run` and `mpisim.run`): the simulation's options
// (mpi/RunOptions.hpp) and the timeline's (timeline/TimelineOptionTable.hpp), shared with `mpisim replay`, plus the
// options only online runs have, declared here. In the online library, so that the Python module can build it too and
// check `mpisim.run`'s keywords with the runner's own parser.
#pragma once

#include "common/OptionTable.hpp"
#include "mpi/Simulation.hpp"
#include "online/options/OnlineOptions.hpp"
#include "online/options/Privatization.hpp"
#include "timeline/TimelineWriter.hpp"

#include <string>
#include <vector>

namespace mpisim::online {

struct RunnerOptions {
  int ranks = -1; // -np; default: the number of hostfile entries, else 1
  mpi::SimulationOptions simulation;
  OnlineOptions online;
  bool host_speed_given = false;
  std::string program; // the application, built by `mpisim cc` as a shared object
  std::vector<std::string> arguments;
  std::string tmpdir;                                // where the per-rank copies go (default: $TMPDIR or /tmp)
  Privatization privatization = Privatization::Auto; // --privatization auto|dlopen|swap
  bool huge_pages = true;                            // --huge-pages: the heap madvised for transparent huge pages
  bool json = false;                                 // summary as JSON
  std::string summary_file;                          // summary there instead of stderr
  bool quiet = false;                                // no summary
  bool tag_output = false;                           // prefix each line of the application's stdout with its rank
  bool help = false;                                 // --help: print the usage and stop
  int restarts = 0;                                  // --restart N: rerun after an abort caused by a process failure
  double restart_cost = 0;                           // --restart-cost T: simulated time a restart takes
  // --timeline FILE (path empty: none), --timeline-format, --timeline-internals, --timeline-links.
  timeline::TimelineOptions timeline;
};

// Every option mpisim-run takes: the shared ones (front ends: replay and run), then the runner's own (run only).
const options::OptionTable<RunnerOptions>& runner_option_table();

// Throws InputError on bad options. Options stop at the program's path: what follows belongs to the application.
RunnerOptions parse_runner_options(int argc, char** argv);
RunnerOptions parse_runner_options(const std::vector<std::string>& arguments); // without argv[0]
// `mpisim run --help`: the usage line and one line per option, from the table.
std::string runner_usage();

} // namespace mpisim::online
