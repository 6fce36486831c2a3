#include "online/runner/RunnerOptions.hpp"

#include "common/Errors.hpp"
#include "common/Units.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <string_view>

namespace mpisim::online {

const char* runner_usage()
{
  return "usage: mpisim run -np N --platform P [--hostfile F] [--map platform|sorted] [--model M]\n"
         "                  [--param NAME=VALUE] [--model-params FILE] [--coll-selector S] [--coll OP=ALGO,...]\n"
         "                  [--host-speed SPEED] [--no-compute-time] [--cpu-threshold SECONDS]\n"
         "                  [--wtime-delay SECONDS] [--stack-size BYTES] [--tmpdir DIR] [--tag-output]\n"
         "                  [--privatization auto|dlopen|swap]\n"
         "                  [--json] [--summary FILE] [--quiet]\n"
         "                  [--timeline FILE [--timeline-format chrome|paje|csv] [--timeline-internals]\n"
         "                  [--timeline-links]] ./app ARGS...\n";
}

namespace {

int count_hostfile_entries(const std::string& path)
{
  std::ifstream in(path);
  if (not in)
    throw InputError(path, 0, "cannot open the hostfile");
  int entries = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#')
      continue;
    const size_t colon = line.find(':');
    entries += colon == std::string::npos ? 1 : std::stoi(line.substr(colon + 1));
  }
  return entries;
}

std::pair<std::string, std::string> split_assignment(const std::string& text, const char* option)
{
  const size_t equal = text.find('=');
  if (equal == std::string::npos)
    throw InputError(std::string(option) + " expects NAME=VALUE, got '" + text + "'");
  return {text.substr(0, equal), text.substr(equal + 1)};
}

// "alltoall=bruck,bcast=binomial_tree": one or several OP=ALGO, as `mpisim replay --coll`.
void add_forced_algorithms(const std::string& text, std::map<std::string, std::string>& forced)
{
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    forced.insert(split_assignment(text.substr(start, comma - start), "--coll"));
    start = comma + 1;
  }
}

mpi::PlacementOrder placement_order(const std::string& text)
{
  if (text == "platform")
    return mpi::PlacementOrder::Platform;
  if (text == "sorted")
    return mpi::PlacementOrder::Sorted;
  throw InputError("--map expects 'platform' or 'sorted', got '" + text + "'");
}

} // namespace

RunnerOptions parse_runner_options(int argc, char** argv)
{
  RunnerOptions options;
  options.simulation.stack_size = 8 * 1024 * 1024; // as SMPI's contexts/stack-size: applications expect real stacks
  int i = 1;
  auto value = [&](std::string_view option) -> std::string {
    if (i + 1 >= argc)
      throw InputError(std::string(option) + " expects a value");
    return argv[++i];
  };
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-np" || arg == "-n" || arg == "--np")
      options.ranks = std::stoi(value(arg));
    else if (arg == "--platform" || arg == "-platform")
      options.simulation.platform = value(arg);
    else if (arg == "--hostfile" || arg == "-hostfile" || arg == "-machinefile")
      options.simulation.hostfile = value(arg);
    else if (arg == "--model")
      options.simulation.model = value(arg);
    else if (arg == "--param")
      options.simulation.model_parameters.push_back(split_assignment(value(arg), "--param"));
    else if (arg == "--coll-selector")
      options.simulation.collective_selector = value(arg);
    else if (arg == "--coll")
      add_forced_algorithms(value(arg), options.simulation.collective_algorithms);
    else if (arg == "--model-params")
      options.simulation.model_parameter_file = value(arg);
    else if (arg == "--map")
      options.simulation.placement = placement_order(value(arg));
    else if (arg == "--host-speed") {
      options.online.host_speed = units::parse_speed(value(arg));
      options.host_speed_given = true;
    } else if (arg == "--no-compute-time")
      options.online.compute_time = false;
    else if (arg == "--cpu-threshold")
      options.online.cpu_threshold = units::parse_time(value(arg));
    else if (arg == "--wtime-delay")
      options.online.wtime_delay = units::parse_time(value(arg));
    else if (arg == "--stack-size")
      options.simulation.stack_size = static_cast<size_t>(units::parse_size(value(arg)));
    else if (arg == "--tmpdir")
      options.tmpdir = value(arg);
    else if (arg == "--privatization") {
      const std::string name = value(arg);
      const std::optional<Privatization> mode = privatization_named(name);
      if (not mode)
        throw InputError("--privatization: unknown mode '" + name + "' (auto, dlopen, swap)");
      options.privatization = *mode;
    }
    else if (arg == "--json")
      options.json = true;
    else if (arg == "--summary")
      options.summary_file = value(arg);
    else if (arg == "--tag-output")
      options.tag_output = true;
    else if (arg == "--quiet")
      options.quiet = true;
    else if (arg == "--timeline")
      options.timeline.path = value(arg);
    else if (arg == "--timeline-format")
      options.timeline_format = value(arg);
    else if (arg == "--timeline-internals")
      options.timeline.internals = true;
    else if (arg == "--timeline-links")
      options.timeline.links = true;
    else if (arg == "-h" || arg == "--help")
      options.help = true;
    else if (arg.starts_with("-"))
      throw InputError("unknown option " + std::string(arg) + "\n" + runner_usage());
    else
      break;
  }
  if (options.help)
    return options;
  if (i >= argc)
    throw InputError(std::string("no program given\n") + runner_usage());
  if (options.timeline.path.empty() &&
      (not options.timeline_format.empty() || options.timeline.internals || options.timeline.links))
    throw InputError("--timeline-format, --timeline-internals and --timeline-links need --timeline FILE");
  options.program = argv[i];
  for (++i; i < argc; ++i)
    options.arguments.emplace_back(argv[i]);
  if (options.ranks < 0)
    options.ranks = options.simulation.hostfile.empty() ? 1 : count_hostfile_entries(options.simulation.hostfile);
  if (options.tmpdir.empty()) {
    const char* env = std::getenv("TMPDIR");
    options.tmpdir = env && *env ? env : "/tmp";
  }
  return options;
}

} // namespace mpisim::online
