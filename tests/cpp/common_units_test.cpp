// Unit grammar of platform files. Expected numbers are the conversions verified on SimGrid 3.32
// (reference notes, section 1.1), so a file means the same thing in mpisim and in SimGrid.
#include "common/Errors.hpp"
#include "common/Units.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mpisim;
using namespace mpisim::units;

namespace {

// The message of the InputError thrown by `parse`, or "" when nothing is thrown.
template <typename Parse> std::string error_of(Parse parse, const std::string& text)
{
  try {
    parse(text, WarningHandler{});
  } catch (const InputError& error) {
    return error.message();
  }
  return "";
}

} // namespace

TEST(Units, SpeedConversionsVerifiedOnSimGrid)
{
  EXPECT_DOUBLE_EQ(parse_speed("1Gf"), 1e9);
  EXPECT_DOUBLE_EQ(parse_speed("1gigaflops"), 1e9);
  EXPECT_DOUBLE_EQ(parse_speed("100Mf"), 1e8);
  EXPECT_DOUBLE_EQ(parse_speed("2.5Tf"), 2.5e12);
  EXPECT_DOUBLE_EQ(parse_speed("1f"), 1);
  EXPECT_DOUBLE_EQ(parse_speed("3flops"), 3);
  EXPECT_DOUBLE_EQ(parse_speed("1kf"), 1e3);
  EXPECT_DOUBLE_EQ(parse_speed("1zetaflops"), 1e21); // SimGrid spells it "zeta"
}

TEST(Units, BandwidthConversionsVerifiedOnSimGrid)
{
  EXPECT_DOUBLE_EQ(parse_bandwidth("125MBps"), 1.25e8);
  EXPECT_DOUBLE_EQ(parse_bandwidth("10Gbps"), 1.25e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("100Mbps"), 1.25e7);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1kBps"), 1000);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1kbps"), 125);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1MiBps"), 1048576);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1GiBps"), 1073741824.0);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1Kibps"), 128);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1TBps"), 1e12);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1Bps"), 1);
  EXPECT_DOUBLE_EQ(parse_bandwidth("8bps"), 1);
}

TEST(Units, TimeConversionsVerifiedOnSimGrid)
{
  EXPECT_DOUBLE_EQ(parse_time("50us"), 5e-5);
  EXPECT_DOUBLE_EQ(parse_time("1.5us"), 1.5e-6);
  EXPECT_DOUBLE_EQ(parse_time("1ns"), 1e-9);
  EXPECT_DOUBLE_EQ(parse_time("2m"), 120);
  EXPECT_DOUBLE_EQ(parse_time("1h"), 3600);
  EXPECT_DOUBLE_EQ(parse_time("1d"), 86400);
  EXPECT_DOUBLE_EQ(parse_time("1w"), 604800);
  EXPECT_DOUBLE_EQ(parse_time("3ms"), 3e-3);
  EXPECT_DOUBLE_EQ(parse_time("1ps"), 1e-12);
  EXPECT_DOUBLE_EQ(parse_time("2s"), 2);
}

TEST(Units, SizeConversions)
{
  EXPECT_DOUBLE_EQ(parse_size("1kB"), 1000);
  EXPECT_DOUBLE_EQ(parse_size("1KiB"), 1024);
  EXPECT_DOUBLE_EQ(parse_size("16b"), 2);
  EXPECT_DOUBLE_EQ(parse_size("1GiB"), 1073741824.0);
}

TEST(Units, ExponentNotationIsANumber)
{
  EXPECT_DOUBLE_EQ(parse_bandwidth("1.25e8Bps"), 1.25e8);
  EXPECT_DOUBLE_EQ(parse_time("5e-5s"), 5e-5);
}

TEST(Units, UnitLessValueIsReadInBaseUnitWithWarning)
{
  std::vector<std::string> warnings;
  WarningHandler collect = [&](const std::string& message) { warnings.push_back(message); };
  EXPECT_DOUBLE_EQ(parse_speed("1e9", collect), 1e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1000", collect), 1000);
  EXPECT_DOUBLE_EQ(parse_time("0.5", collect), 0.5);
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_EQ(warnings[0], "unit-less speed '1e9' is deprecated: append 'f' or 'flops' (flop per second)");
  EXPECT_NE(warnings[1].find("'1000'"), std::string::npos);
}

TEST(Units, ZeroNeedsNoUnit)
{
  std::vector<std::string> warnings;
  WarningHandler collect = [&](const std::string& message) { warnings.push_back(message); };
  EXPECT_EQ(parse_time("0", collect), 0);
  EXPECT_EQ(parse_bandwidth("0", collect), 0);
  EXPECT_TRUE(warnings.empty());
}

TEST(Units, UpperCaseKiloIsRejectedWithSuggestion)
{
  EXPECT_EQ(error_of(parse_bandwidth, "1KBps"),
            "unknown unit 'KBps' in bandwidth '1KBps' (the decimal kilo prefix is a lower-case k: write 'kBps')");
  EXPECT_EQ(error_of(parse_bandwidth, "1Kbps"),
            "unknown unit 'Kbps' in bandwidth '1Kbps' (the decimal kilo prefix is a lower-case k: write 'kbps')");
}

TEST(Units, WrongCaseAndLongFormsAreRejected)
{
  EXPECT_EQ(error_of(parse_speed, "1GF"),
            "unknown unit 'GF' in speed '1GF' (units are case-sensitive: did you mean 'Gf'?)");
  EXPECT_EQ(error_of(parse_speed, "1Gflops"),
            "unknown unit 'Gflops' in speed '1Gflops' (write 'Gf' or the long prefix, e.g. 'gigaflops')");
  EXPECT_EQ(error_of(parse_time, "3sec"), "unknown unit 'sec' in time '3sec'");
  EXPECT_EQ(error_of(parse_bandwidth, "1 Gbps"), "unknown unit ' Gbps' in bandwidth '1 Gbps'");
}

TEST(Units, MalformedNumbersAreRejected)
{
  EXPECT_EQ(error_of(parse_speed, ""), "empty speed value");
  EXPECT_EQ(error_of(parse_speed, "Gf"), "cannot read a number in speed 'Gf'");
  EXPECT_EQ(error_of(parse_time, "-1s"), "time '-1s' is negative");
  EXPECT_EQ(error_of(parse_bandwidth, "infGbps"), "bandwidth 'infGbps' is not a finite number");
  EXPECT_EQ(error_of(parse_bandwidth, "1e999Bps"), "bandwidth '1e999Bps' is out of range");
  EXPECT_EQ(error_of(parse_time, "nans"), "time 'nans' is not a finite number");
}

// A number a double holds, times its unit, may not be: 1e308 GB/s is 1e317 B/s, infinite. A model would then divide
// by infinity (a transfer of zero time) or multiply zero by it (NaN, a run that never ends).
TEST(Units, QuantitiesTooLargeOnceScaledAreRejected)
{
  EXPECT_EQ(error_of(parse_bandwidth, "1e308GBps"), "bandwidth '1e308GBps' is out of range");
  EXPECT_EQ(error_of(parse_time, "1e307w"), "time '1e307w' is out of range");
  EXPECT_EQ(error_of(parse_size, "1e300YiB"), "size '1e300YiB' is out of range");
  EXPECT_DOUBLE_EQ(parse_size("1e300B"), 1e300); // large but finite: kept
}

TEST(Units, ErrorsCarryNoLocation)
{
  try {
    parse_speed("abc");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "");
    EXPECT_EQ(error.line(), 0);
    EXPECT_STREQ(error.what(), "cannot read a number in speed 'abc'");
  }
}

TEST(Units, SpeedListGivesOneValuePerPowerState)
{
  std::vector<double> speeds = parse_speed_list("1Gf, 500Mf,100Mf");
  ASSERT_EQ(speeds.size(), 3u);
  EXPECT_DOUBLE_EQ(speeds[0], 1e9);
  EXPECT_DOUBLE_EQ(speeds[1], 5e8);
  EXPECT_DOUBLE_EQ(speeds[2], 1e8);
  EXPECT_EQ(error_of(parse_speed_list, "1Gf,,2Gf"), "empty speed value");
}
