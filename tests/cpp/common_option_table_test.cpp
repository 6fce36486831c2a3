// The option table's value parser: each type reads what the command line writes, quantities with SimGrid's units, and a
// bad value is an InputError whose message names the option (or the keyword it was given as) and the text.
#include "common/Errors.hpp"
#include "common/OptionTable.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace mpisim;
using namespace mpisim::options;

namespace {

OptionInfo option(const char* name, ValueType type, const char* metavar = "X")
{
  OptionInfo info;
  info.name = name;
  info.type = type;
  info.metavar = metavar;
  return info;
}

std::string error_of(const OptionInfo& info, const std::string& text, const char* shown_as = nullptr)
{
  try {
    parse_value(info, text, shown_as ? shown_as : info.name);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

} // namespace

TEST(OptionTable, ValuesAreTypedByTheDeclaration)
{
  EXPECT_EQ(std::get<long long>(parse_value(option("-np", ValueType::Integer), "16")), 16);
  EXPECT_EQ(std::get<bool>(parse_value(option("--quiet", ValueType::Flag), "true")), true);
  EXPECT_EQ(std::get<std::string>(parse_value(option("--model", ValueType::Text), "fluid")), "fluid");
  // SimGrid's unit grammar, in base units: 1.5 us = 1.5e-6 s; 2 Gf = 2e9 flop/s; 8 MiB = 8 x 2^20 B.
  EXPECT_DOUBLE_EQ(std::get<double>(parse_value(option("--cpu-threshold", ValueType::Time), "1.5us")), 1.5e-6);
  EXPECT_DOUBLE_EQ(std::get<double>(parse_value(option("--host-speed", ValueType::Speed), "2Gf")), 2e9);
  EXPECT_DOUBLE_EQ(std::get<double>(parse_value(option("--stack-size", ValueType::Size), "8MiB")), 8388608);
  OptionInfo map = option("--map", ValueType::Choice, "ORDER");
  map.choices = {"platform", "sorted"};
  EXPECT_EQ(std::get<std::string>(parse_value(map, "sorted")), "sorted");
}

TEST(OptionTable, AssignmentsAreTrimmedAndListsSkipEmptyItems)
{
  const Assignments one =
      std::get<Assignments>(parse_value(option("--param", ValueType::Assignment, "NAME=VALUE"), " bw-factor = 0.9 "));
  EXPECT_EQ(one, (Assignments{{"bw-factor", "0.9"}}));
  // A value may itself hold '=': only the first one separates.
  EXPECT_EQ(std::get<Assignments>(parse_value(option("--param", ValueType::Assignment, "NAME=VALUE"), "a=b=c")),
            (Assignments{{"a", "b=c"}}));
  const Assignments list = std::get<Assignments>(
      parse_value(option("--coll", ValueType::AssignmentList, "OP=ALGO[,...]"), "alltoall=bruck,,bcast=NTSB,"));
  EXPECT_EQ(list, (Assignments{{"alltoall", "bruck"}, {"bcast", "NTSB"}}));
}

TEST(OptionTable, BadValuesNameTheOptionAndTheText)
{
  EXPECT_EQ(error_of(option("-np", ValueType::Integer), "four"), "-np expects an integer, got 'four'");
  EXPECT_EQ(error_of(option("-np", ValueType::Integer), "4x"), "-np expects an integer, got '4x'");
  EXPECT_EQ(error_of(option("-np", ValueType::Integer), "4", "np"), "");
  EXPECT_EQ(error_of(option("-np", ValueType::Integer), "", "np"), "np expects an integer, got ''");
  EXPECT_EQ(error_of(option("--quiet", ValueType::Flag), "maybe"), "--quiet is a flag: true or false, got 'maybe'");
  // Units: the unit parser's own message, after the option's name.
  const std::string speed = error_of(option("--host-speed", ValueType::Speed), "2Gx");
  EXPECT_EQ(speed.rfind("--host-speed: ", 0), 0u) << speed;
  EXPECT_NE(speed.find("'Gx'"), std::string::npos) << speed;
  EXPECT_EQ(error_of(option("--cpu-threshold", ValueType::Time), "-1us", "cpu_threshold").rfind("cpu_threshold: ", 0),
            0u);
  EXPECT_NE(error_of(option("--stack-size", ValueType::Size), "lots").find("--stack-size: "), std::string::npos);
  OptionInfo mode = option("--privatization", ValueType::Choice, "MODE");
  mode.choices = {"auto", "dlopen", "swap"};
  EXPECT_EQ(error_of(mode, "mmap"), "--privatization: unknown mode 'mmap' (auto, dlopen, swap)");
  EXPECT_EQ(error_of(option("--param", ValueType::Assignment, "NAME=VALUE"), "novalue"),
            "--param expects NAME=VALUE, got 'novalue'");
  EXPECT_EQ(error_of(option("--param", ValueType::Assignment, "NAME=VALUE"), "=3"),
            "--param expects NAME=VALUE, got '=3'");
  EXPECT_EQ(error_of(option("--coll", ValueType::AssignmentList, "OP=ALGO[,...]"), "alltoall=bruck,bcast"),
            "--coll expects OP=ALGO[,...], got 'bcast'");
  EXPECT_EQ(error_of(option("--coll", ValueType::AssignmentList, "OP=ALGO[,...]"), "bcast="),
            "--coll expects OP=ALGO[,...], got 'bcast='");
}

TEST(OptionTable, HelpShowsTheDefaultAndTheSimGridNames)
{
  OptionInfo info = option("--cpu-threshold", ValueType::Time, "T");
  info.help = "computation bursts shorter than T are dropped";
  info.default_value = "1us";
  info.simgrid = {"smpi/cpu-threshold"};
  EXPECT_EQ(describe(info),
            "computation bursts shorter than T are dropped (default: 1us) [SimGrid: smpi/cpu-threshold]");
  // Name and value in a 32-column field, then the description; a longer one on its own line.
  const std::string left = "  --cpu-threshold T";
  EXPECT_EQ(help_line(info), left + std::string(32 - left.size(), ' ') + describe(info) + "\n");
  info.spellings = {"-a-very-long-spelling-indeed"};
  EXPECT_EQ(help_line(info),
            "  --cpu-threshold, -a-very-long-spelling-indeed T\n" + std::string(32, ' ') + describe(info) + "\n");
  EXPECT_EQ(unknown_option_message("run", "--frob"), "unknown option --frob (`mpisim run --help` lists the options)");
}
