#include "online/options/RunnerOptions.hpp"

#include "common/Errors.hpp"
#include "mpi/Placement.hpp"
#include "mpi/RunOptions.hpp"
#include "timeline/TimelineOptionTable.hpp"

#include <charconv>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>

namespace mpisim::online {

namespace {

using options::Option;
using options::OptionTable;
using options::OptionValue;
using options::ValueType;

// The ranks a hostfile lists, as the default of -np; read as placement reads it (mpi/Placement.hpp).
int count_hostfile_entries(const std::string& path)
{
  const long long slots = mpi::hostfile_slots(mpi::read_hostfile(path));
  if (slots > std::numeric_limits<int>::max())
    throw InputError(path, 0,
                     "the hostfile lists " + std::to_string(slots) + " slots, more ranks than -np takes (" +
                         std::to_string(std::numeric_limits<int>::max()) + "): give -np");
  return static_cast<int>(slots);
}

using Target = RunnerOptions;

// What only online runs have: the number of ranks (replay's --np defaults to the trace's), how the program's
// computation and time are measured, how it is loaded, and where the summary goes.
// "1=bxi,0=smpi": each model is made at the start (a wrong name is bad input).
void set_pcontrol_models(Target& o, const std::string& text)
{
  o.online.pcontrol_models.clear();
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    const size_t equal = item.find('=');
    int level = 0;
    const char* end = item.data() + (equal == std::string::npos ? 0 : equal);
    const auto parsed = std::from_chars(item.data(), end, level);
    if (equal == std::string::npos || equal == 0 || parsed.ptr != end || parsed.ec != std::errc{} ||
        equal + 1 == item.size())
      throw InputError("--pcontrol-models: '" + item + "' is not LEVEL=MODEL (1=bxi,0=smpi)");
    const std::string model = item.substr(equal + 1);
    o.online.pcontrol_models[level] = model;
    o.simulation.switch_models.push_back(model);
  }
}

OptionTable<Target> own_options()
{
  OptionTable<Target> table;
  table.push_back({{.name = "--host-speed",
                    .type = ValueType::Speed,
                    .metavar = "SPEED",
                    .help = "flop/s of the real machine (e.g. 2Gf), to scale measured computation; measured at start "
                            "when absent",
                    .simgrid = {"smpi/host-speed"},
                    .front_ends = options::Run,
                    .keyword = "host_speed",
                    .minimum = "1f"}, // measured computation is divided by it
                   [](Target& o, const OptionValue& v) {
                     o.online.host_speed = std::get<double>(v);
                     o.host_speed_given = true;
                   }});
  table.push_back({{.name = "--no-compute-time",
                    .type = ValueType::Flag,
                    .help = "do not inject the computation between MPI calls",
                    .simgrid = {"smpi/simulate-computation:no"},
                    .front_ends = options::Run,
                    .keyword = "no_compute_time"},
                   [](Target& o, const OptionValue& v) { o.online.compute_time = not std::get<bool>(v); }});
  table.push_back({{.name = "--cpu-threshold",
                    .type = ValueType::Time,
                    .metavar = "T",
                    .default_value = "1us",
                    .help = "computation bursts shorter than T are dropped",
                    .simgrid = {"smpi/cpu-threshold"},
                    .front_ends = options::Run,
                    .keyword = "cpu_threshold"},
                   [](Target& o, const OptionValue& v) { o.online.cpu_threshold = std::get<double>(v); }});
  table.push_back({{.name = "--restart",
                    .type = ValueType::Integer,
                    .metavar = "N",
                    .default_value = "0",
                    .help = "up to N times, start the job again when a process failure aborts it, the simulated "
                            "clock going on: run, the program again (its files, its checkpoints, stay); replay, every "
                            "rank from the last --checkpoint-interval checkpoint (checkpoint/restart, "
                            "docs/failures.md)",
                    .keyword = "restart",
                    .minimum = "0"},
                   [](Target& o, const OptionValue& v) { o.restarts = static_cast<int>(std::get<long long>(v)); }});
  table.push_back({{.name = "--restart-cost",
                    .type = ValueType::Time,
                    .metavar = "T",
                    .default_value = "0s",
                    .help = "simulated time between an abort (replay: the failure) and the restarted attempt's "
                            "start",
                    .keyword = "restart_cost"},
                   [](Target& o, const OptionValue& v) { o.restart_cost = std::get<double>(v); }});
  table.push_back({{.name = "--wtime-delay",
                    .type = ValueType::Time,
                    .metavar = "T",
                    .default_value = "10ns",
                    .help = "simulated time each MPI_Wtime spends after reading the clock, so that loops polling "
                            "MPI_Wtime see time advance",
                    .simgrid = {"smpi/wtime"},
                    .front_ends = options::Run,
                    .keyword = "wtime_delay"},
                   [](Target& o, const OptionValue& v) { o.online.wtime_delay = std::get<double>(v); }});
  table.push_back({{.name = "--real-clocks",
                    .type = ValueType::Flag,
                    .help = "the program's clocks and sleeps (gettimeofday, clock_gettime, time, clock, getrusage, "
                            "std::chrono, sleep, nanosleep, ...) are the real ones, not the rank's simulated time",
                    .front_ends = options::Run,
                    .keyword = "real_clocks"},
                   [](Target& o, const OptionValue& v) { o.online.real_clocks = std::get<bool>(v); }});
  table.push_back({{.name = "--polling",
                    .type = ValueType::Choice,
                    .metavar = "RULE",
                    .default_value = "realistic",
                    .help = "what MPI_Test, MPI_Iprobe and their kin cost: realistic (--poll-cost each, a rank "
                            "polling with nothing changed jumps to the next change) or smpi (SimGrid 3.32's growing "
                            "delays) (docs/specifications/polling.md)",
                    .front_ends = options::Run,
                    .keyword = "polling",
                    .choices = {"realistic", "smpi"}},
                   [](Target& o, const OptionValue& v) {
                     o.online.polling.rule =
                         std::get<std::string>(v) == "smpi" ? mpi::PollingRule::Smpi : mpi::PollingRule::Realistic;
                   }});
  table.push_back({{.name = "--scheduling",
                    .type = ValueType::Choice,
                    .metavar = "MODE",
                    .default_value = "run-to-block",
                    .help = "how the ranks resuming at one simulated date take turns: run-to-block (each until it "
                            "blocks) or smpi (SimGrid 3.32's rounds: each MPI operation that is a kernel call there "
                            "gives way to the other ranks, so that results match smpirun's call by call) "
                            "(docs/specifications/same-date-order.md)",
                    .front_ends = options::Run,
                    .keyword = "scheduling",
                    .choices = {"run-to-block", "smpi"}},
                   [](Target& o, const OptionValue& v) {
                     o.online.scheduling =
                         std::get<std::string>(v) == "smpi" ? mpi::Scheduling::SmpiRounds : mpi::Scheduling::RunToBlock;
                   }});
  table.push_back({{.name = "--poll-cost",
                    .type = ValueType::Time,
                    .metavar = "T",
                    .default_value = "100ns",
                    .help = "--polling realistic: simulated time of one polling call (Open MPI 4.1.4 measured, "
                            "bench/polling/)",
                    .front_ends = options::Run,
                    .keyword = "poll_cost"},
                   [](Target& o, const OptionValue& v) { o.online.polling.poll_cost = std::get<double>(v); }});
  // SimGrid's defaults are the double 1e-4; "100us" would parse to 100 x 1e-6, one bit less, which changes which of
  // two polls ending at the same date ends first (docs/specifications/same-date-order.md).
  table.push_back({{.name = "--test-delay",
                    .type = ValueType::Time,
                    .metavar = "T",
                    .default_value = "1e-4s",
                    .help = "--polling smpi: base delay of a test, multiplied by a count of failed tests",
                    .simgrid = {"smpi/test"},
                    .front_ends = options::Run,
                    .keyword = "test_delay"},
                   [](Target& o, const OptionValue& v) { o.online.polling.test_delay = std::get<double>(v); }});
  table.push_back({{.name = "--iprobe-delay",
                    .type = ValueType::Time,
                    .metavar = "T",
                    .default_value = "1e-4s",
                    .help = "--polling smpi: base delay of an iprobe, multiplied by a count of failed iprobes",
                    .simgrid = {"smpi/iprobe"},
                    .front_ends = options::Run,
                    .keyword = "iprobe_delay"},
                   [](Target& o, const OptionValue& v) { o.online.polling.iprobe_delay = std::get<double>(v); }});
  table.push_back({{.name = "--grow-injected-times",
                    .type = ValueType::Choice,
                    .metavar = "yes|no",
                    .default_value = "yes",
                    .help = "--polling smpi: whether failed tests and iprobes make the next ones longer",
                    .simgrid = {"smpi/grow-injected-times"},
                    .front_ends = options::Run,
                    .keyword = "grow_injected_times",
                    .choices = {"yes", "no"}},
                   [](Target& o, const OptionValue& v) {
                     o.online.polling.grow_injected_times = std::get<std::string>(v) == "yes";
                   }});
  table.push_back(
      {{.name = "--stack-size",
        .type = ValueType::Size,
        .metavar = "BYTES",
        .default_value = "8MiB", // as SMPI's: applications expect real stacks
        .help = "stack of each rank",
        .simgrid = {"contexts/stack-size"},
        .front_ends = options::Run,
        .keyword = "stack_size",
        .minimum = "64KiB", // the runtime's frames, the program's main and a printf
        .maximum = "1TiB"},
       [](Target& o, const OptionValue& v) { o.simulation.stack_size = static_cast<size_t>(std::get<double>(v)); }});
  table.push_back({{.name = "--tmpdir",
                    .type = ValueType::Text,
                    .metavar = "DIR",
                    .help = "where the per-rank copies of the program are made (dlopen privatization; default: "
                            "$TMPDIR or /tmp)",
                    .simgrid = {"smpi/tmpdir"},
                    .front_ends = options::Run,
                    .keyword = "tmpdir"},
                   [](Target& o, const OptionValue& v) { o.tmpdir = std::get<std::string>(v); }});
  table.push_back({{.name = "--privatization",
                    .type = ValueType::Choice,
                    .metavar = "MODE",
                    .default_value = "auto",
                    .help = "how each rank gets its own globals, statics and thread-locals (docs/online.md)",
                    .simgrid = {"smpi/privatization"},
                    .front_ends = options::Run,
                    .keyword = "privatization",
                    .choices = {"auto", "dlopen", "swap"}},
                   [](Target& o, const OptionValue& v) {
                     const std::string& mode = std::get<std::string>(v);
                     o.privatization = mode == "swap"     ? Privatization::Swap
                                       : mode == "dlopen" ? Privatization::Dlopen
                                                          : Privatization::Auto;
                   }});
  table.push_back({{.name = "--huge-pages",
                    .type = ValueType::Choice,
                    .metavar = "yes|no",
                    .default_value = "yes",
                    .help = "whether the program's heap uses transparent huge pages (GLIBC_TUNABLES "
                            "glibc.malloc.hugetlb=1; docs/online.md)",
                    .front_ends = options::Run,
                    .keyword = "huge_pages",
                    .choices = {"yes", "no"}},
                   [](Target& o, const OptionValue& v) { o.huge_pages = std::get<std::string>(v) == "yes"; }});
  table.push_back({{.name = "--io-root",
                    .type = ValueType::Text,
                    .metavar = "DIR",
                    .help = "where MPI-IO files are kept: every file the program opens is DIR/its path, nothing "
                            "outside DIR is touched (default: a temporary folder removed at the end; docs/io.md)",
                    .front_ends = options::Run,
                    .keyword = "io_root"},
                   [](Target& o, const OptionValue& v) { o.online.io_root = std::get<std::string>(v); }});
  table.push_back({{.name = "--pcontrol-models",
                    .type = ValueType::Text,
                    .metavar = "LEVEL=MODEL,...",
                    .help = "MPI_Pcontrol(LEVEL) switches the network model to MODEL for the messages posted from then "
                            "on (1=bxi,0=smpi; docs/bxi.md)",
                    .front_ends = options::Run,
                    .keyword = "pcontrol_models"},
                   [](Target& o, const OptionValue& v) { set_pcontrol_models(o, std::get<std::string>(v)); }});
  table.push_back({{.name = "--tag-output",
                    .type = ValueType::Flag,
                    .help = "prefix each line the program writes on stdout or stderr with the writing rank: [3] ...",
                    .front_ends = options::Run,
                    .keyword = "tag_output"},
                   [](Target& o, const OptionValue& v) { o.tag_output = std::get<bool>(v); }});
  return table;
}

// Where the summary goes: the command line's business (mpisim.run always asks for JSON in a file), no keyword.
OptionTable<Target> summary_options()
{
  OptionTable<Target> table;
  table.push_back({{.name = "--json",
                    .type = ValueType::Flag,
                    .help = "the summary as JSON: simulated_time, per-rank compute, mpi, finish, calls, inputs, "
                            "model parameters",
                    .front_ends = options::Run},
                   [](Target& o, const OptionValue& v) { o.json = std::get<bool>(v); }});
  table.push_back({{.name = "--summary",
                    .type = ValueType::Text,
                    .metavar = "FILE",
                    .help = "write the summary to FILE rather than to stderr",
                    .front_ends = options::Run},
                   [](Target& o, const OptionValue& v) { o.summary_file = std::get<std::string>(v); }});
  table.push_back({{.name = "--quiet", .type = ValueType::Flag, .help = "no summary", .front_ends = options::Run},
                   [](Target& o, const OptionValue& v) { o.quiet = std::get<bool>(v); }});
  table.push_back({{.name = "--help",
                    .spellings = {"-h"},
                    .type = ValueType::Flag,
                    .help = "print this help and stop",
                    .front_ends = options::Run},
                   [](Target& o, const OptionValue& v) { o.help = std::get<bool>(v); }});
  return table;
}

OptionTable<Target> make_table()
{
  OptionTable<Target> table;
  table.push_back({{.name = "-np",
                    .spellings = {"-n", "--np"},
                    .type = ValueType::Integer,
                    .metavar = "N",
                    .help = "number of ranks (default: the hostfile's entries, else 1)",
                    .front_ends = options::Run,
                    .keyword = "np",
                    .minimum = "1",
                    .maximum = "2147483647"}, // an int, as MPI's ranks
                   [](Target& o, const OptionValue& v) { o.ranks = static_cast<int>(std::get<long long>(v)); }});
  for (auto part : {options::nested(mpi::simulation_option_table(), &Target::simulation), own_options(),
                    options::nested(timeline::timeline_option_table(), &Target::timeline), summary_options()})
    table.insert(table.end(), part.begin(), part.end());
  return table;
}

} // namespace

const OptionTable<RunnerOptions>& runner_option_table()
{
  static const OptionTable<RunnerOptions> table = make_table();
  return table;
}

std::string runner_usage()
{
  std::string text = "usage: mpisim run [OPTIONS] ./app ARGS...\n\n"
                     "Simulates an MPI program built by `mpisim cc` (docs/online.md). Options:\n";
  for (const Option<RunnerOptions>& option : runner_option_table())
    text += options::help_line(option.info);
  return text;
}

RunnerOptions parse_runner_options(const std::vector<std::string>& arguments)
{
  const OptionTable<RunnerOptions>& table = runner_option_table();
  RunnerOptions options;
  for (const Option<RunnerOptions>& option : table) // the defaults the table declares
    if (not option.info.default_value.empty())
      option.apply(options, options::parse_value(option.info, option.info.default_value));
  std::set<const Option<RunnerOptions>*> given;
  size_t i = 0;
  for (; i < arguments.size() && arguments[i].starts_with("-"); ++i) {
    const std::string& name = arguments[i];
    const Option<RunnerOptions>* option = options::find_option(table, name);
    if (option == nullptr)
      throw InputError(options::unknown_option_message("run", name));
    given.insert(option);
    if (option->info.type == ValueType::Flag) {
      option->apply(options, true);
      continue;
    }
    if (i + 1 >= arguments.size())
      throw InputError(name + " expects a value");
    option->apply(options, options::parse_value(option->info, arguments[++i], name));
  }
  if (options.help)
    return options;
  if (i >= arguments.size())
    throw InputError("no program given\n" + runner_usage());
  for (const Option<RunnerOptions>& option : table)
    if (option.info.required && not given.contains(&option))
      throw InputError(option.info.name + " is required");
  timeline::check_timeline_options(options.timeline);
  options.program = arguments[i];
  options.arguments.assign(arguments.begin() + static_cast<long>(i) + 1, arguments.end());
  if (options.ranks < 0)
    options.ranks = options.simulation.hostfile.empty() ? 1 : count_hostfile_entries(options.simulation.hostfile);
  if (options.tmpdir.empty()) {
    const char* env = std::getenv("TMPDIR");
    options.tmpdir = env && *env ? env : "/tmp";
  }
  return options;
}

RunnerOptions parse_runner_options(int argc, char** argv)
{
  return parse_runner_options(std::vector<std::string>(argv + std::min(argc, 1), argv + argc));
}

} // namespace mpisim::online
