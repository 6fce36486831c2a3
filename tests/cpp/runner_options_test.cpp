// mpisim-run's command line, parsed from the option tables: the shared simulation and timeline options and the
// runner's own, with their types, units, defaults (the table's, equal to the structures' own) and errors.
#include "common/Errors.hpp"
#include "mpi/RunOptions.hpp"
#include "online/options/RunnerOptions.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mpisim;
using namespace mpisim::online;

namespace {

std::string error_of(const std::vector<std::string>& arguments)
{
  try {
    parse_runner_options(arguments);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

} // namespace

TEST(RunnerOptions, EveryTypeIsReadFromTheCommandLine)
{
  const RunnerOptions o = parse_runner_options(std::vector<std::string>{"-n",
                                                                        "4",
                                                                        "-platform",
                                                                        "cluster:4",
                                                                        "--host-speed",
                                                                        "2Gf",
                                                                        "--cpu-threshold",
                                                                        "5us",
                                                                        "--wtime-delay",
                                                                        "0",
                                                                        "--stack-size",
                                                                        "1MiB",
                                                                        "--privatization",
                                                                        "swap",
                                                                        "--param",
                                                                        "bw-factor=0.9",
                                                                        "--param",
                                                                        " latency-factor = 2 ",
                                                                        "--coll",
                                                                        "alltoall=bruck,bcast=NTSB,",
                                                                        "--coll",
                                                                        "bcast=binomial_tree",
                                                                        "--map",
                                                                        "sorted",
                                                                        "--no-compute-time",
                                                                        "--timeline",
                                                                        "t.json",
                                                                        "--timeline-links",
                                                                        "--json",
                                                                        "./app",
                                                                        "-x",
                                                                        "--y"});
  EXPECT_EQ(o.ranks, 4);
  EXPECT_EQ(o.simulation.platform, "cluster:4");
  EXPECT_DOUBLE_EQ(o.online.host_speed, 2e9);
  EXPECT_TRUE(o.host_speed_given);
  EXPECT_DOUBLE_EQ(o.online.cpu_threshold, 5e-6);
  EXPECT_EQ(o.online.wtime_delay, 0.0);
  EXPECT_EQ(o.simulation.stack_size, 1048576u);
  EXPECT_EQ(o.privatization, Privatization::Swap);
  EXPECT_EQ(o.simulation.model_parameters,
            (std::vector<std::pair<std::string, std::string>>{{"bw-factor", "0.9"}, {"latency-factor", "2"}}));
  // --coll: the last algorithm given for an operation wins.
  EXPECT_EQ(o.simulation.collective_algorithms,
            (std::map<std::string, std::string>{{"alltoall", "bruck"}, {"bcast", "binomial_tree"}}));
  EXPECT_EQ(o.simulation.placement, mpi::PlacementOrder::Sorted);
  EXPECT_FALSE(o.online.compute_time);
  EXPECT_EQ(o.timeline.path, "t.json");
  EXPECT_TRUE(o.timeline.links);
  EXPECT_TRUE(o.json);
  // Options stop at the program: what follows is the program's, dashes included.
  EXPECT_EQ(o.program, "./app");
  EXPECT_EQ(o.arguments, (std::vector<std::string>{"-x", "--y"}));
}

TEST(RunnerOptions, DefaultsAreTheTablesAndAgreeWithTheStructures)
{
  const RunnerOptions o = parse_runner_options(std::vector<std::string>{"--platform", "cluster:2", "./app"});
  EXPECT_EQ(o.ranks, 1); // no hostfile: one rank
  EXPECT_DOUBLE_EQ(o.online.cpu_threshold, 1e-6);
  EXPECT_DOUBLE_EQ(o.online.wtime_delay, 1e-8);
  EXPECT_EQ(o.simulation.stack_size, 8u << 20);
  EXPECT_EQ(o.privatization, Privatization::Auto);
  EXPECT_FALSE(o.host_speed_given);
  // The simulation options' declared defaults are the structure's own, which `mpisim replay` starts from.
  const mpi::SimulationOptions plain;
  EXPECT_EQ(o.simulation.model, plain.model);
  EXPECT_EQ(o.simulation.collective_selector, plain.collective_selector);
  EXPECT_EQ(o.simulation.placement, plain.placement);
  for (const auto& option : mpi::simulation_option_table()) {
    mpi::SimulationOptions applied;
    if (not option.info.default_value.empty())
      option.apply(applied, options::parse_value(option.info, option.info.default_value));
    EXPECT_EQ(applied.model, plain.model) << option.info.name;
    EXPECT_EQ(applied.collective_selector, plain.collective_selector) << option.info.name;
    EXPECT_EQ(applied.placement, plain.placement) << option.info.name;
  }
}

TEST(RunnerOptions, BadValuesAreInputErrorsNamingTheOption)
{
  const std::vector<std::string> platform{"--platform", "cluster:2"};
  auto with = [&](std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), platform.begin(), platform.end());
    arguments.emplace_back("./app");
    return error_of(arguments);
  };
  EXPECT_EQ(with({"-np", "four"}), "-np expects an integer, got 'four'");
  EXPECT_EQ(with({"--privatization", "mmap"}), "--privatization: unknown mode 'mmap' (auto, dlopen, swap)");
  EXPECT_EQ(with({"--map", "random"}), "--map: unknown order 'random' (platform, sorted)");
  EXPECT_EQ(with({"--param", "novalue"}), "--param expects NAME=VALUE, got 'novalue'");
  EXPECT_EQ(with({"--coll", "bruck"}), "--coll expects OP=ALGO[,...], got 'bruck'");
  EXPECT_EQ(with({"--host-speed", "2Gx"}).rfind("--host-speed: ", 0), 0u);
  EXPECT_EQ(with({"--cpu-threshold", "1parsec"}).rfind("--cpu-threshold: ", 0), 0u);
  EXPECT_EQ(with({"--frob"}), "unknown option --frob (`mpisim run --help` lists the options)");
  EXPECT_EQ(with({"--timeline-links"}),
            "--timeline-format, --timeline-internals and --timeline-links need --timeline FILE");
  EXPECT_EQ(error_of({"./app"}), "--platform is required");
  EXPECT_EQ(error_of({"--platform"}), "--platform expects a value");
  EXPECT_EQ(error_of({"--platform", "p"}).rfind("no program given\n", 0), 0u);
}

TEST(RunnerOptions, UsageListsEveryOptionWithItsHelp)
{
  const std::string usage = runner_usage();
  for (const auto& option : runner_option_table()) {
    EXPECT_NE(usage.find("  " + option.info.name), std::string::npos) << option.info.name;
    EXPECT_NE(usage.find(option.info.help), std::string::npos) << option.info.name;
  }
}
