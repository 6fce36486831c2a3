// mpisim-run's command line, parsed from the option tables: the shared simulation and timeline options and the
// runner's own, with their types, units, defaults (the table's, equal to the structures' own) and errors.
#include "common/Errors.hpp"
#include "mpi/RunOptions.hpp"
#include "online/options/RunnerOptions.hpp"
#include "support/Scratch.hpp"

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
  EXPECT_EQ(with({"-np", "four"}), "-np expects an integer from 1 to 2147483647, got 'four'");
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

// Issue 13: -np abc and a hostfile "node-0:abc" ended in `stoi` (exit 1), -np 99999999999 wrapped around, -np -1
// ran one rank, --stack-size 0 crashed (exit 139). Each is one InputError naming the option and its range.
TEST(RunnerOptions, RankCountsAndStackSizesAreBounded)
{
  auto with = [&](std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {"--platform", "cluster:2"});
    arguments.emplace_back("./app");
    return error_of(arguments);
  };
  EXPECT_EQ(with({"-np", "abc"}), "-np expects an integer from 1 to 2147483647, got 'abc'");
  EXPECT_EQ(with({"-np", "99999999999"}), "-np expects an integer from 1 to 2147483647, got '99999999999'");
  EXPECT_EQ(with({"-np", "2147483648"}), "-np expects an integer from 1 to 2147483647, got '2147483648'");
  EXPECT_EQ(with({"-np", "99999999999999999999"}),
            "-np expects an integer from 1 to 2147483647, got '99999999999999999999'");
  EXPECT_EQ(with({"-np", "-1"}), "-np expects an integer from 1 to 2147483647, got '-1'");
  EXPECT_EQ(with({"-np", "0"}), "-np expects an integer from 1 to 2147483647, got '0'");
  EXPECT_EQ(with({"-np", "2147483647"}), "");
  EXPECT_EQ(with({"--stack-size", "0"}), "--stack-size: '0B' is below the minimum, 64KiB");
  EXPECT_EQ(with({"--stack-size", "1KiB"}), "--stack-size: '1024B' is below the minimum, 64KiB");
  EXPECT_EQ(with({"--stack-size", "2TiB"}), "--stack-size: '2.19902e+12B' is above the maximum, 1TiB");
  EXPECT_EQ(with({"--stack-size", "64KiB"}), "");
  EXPECT_EQ(with({"--host-speed", "0f"}), "--host-speed: '0f' is below the minimum, 1f");
}

TEST(RunnerOptions, HostfileSlotCountsAreCheckedWithFileAndLine)
{
  testing_support::Scratch scratch;
  auto ranks_from = [&](const std::string& path) -> std::string {
    try {
      return std::to_string(parse_runner_options({"--platform", "cluster:2", "--hostfile", path, "./app"}).ranks);
    } catch (const InputError& error) {
      return error.what();
    }
  };
  EXPECT_EQ(ranks_from(scratch.write("two", "node-0:3\n# comment\n  node-1\n")), "4");
  const std::string abc = scratch.write("abc", "node-0\nnode-1:abc\n");
  EXPECT_EQ(ranks_from(abc), abc + ":2: bad slot count 'abc' (expected host or host:N with N >= 1)");
  const std::string huge = scratch.write("huge", "node-0:99999999999999999999\n");
  EXPECT_EQ(ranks_from(huge), huge + ":1: slot count '99999999999999999999' is out of range (1 to 2147483647)");
  const std::string many = scratch.write("many", "node-0:2147483647\nnode-1:1\n");
  EXPECT_EQ(ranks_from(many), many + ": the hostfile lists 2147483648 slots, more ranks than -np takes (2147483647): "
                                     "give -np");
}

TEST(RunnerOptions, UsageListsEveryOptionWithItsHelp)
{
  const std::string usage = runner_usage();
  for (const auto& option : runner_option_table()) {
    EXPECT_NE(usage.find("  " + option.info.name), std::string::npos) << option.info.name;
    EXPECT_NE(usage.find(option.info.help), std::string::npos) << option.info.name;
  }
}
