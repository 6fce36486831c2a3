// models/RouteSums: the latency sum and smallest bandwidth between two hosts that loggps and xsim read instead of
// routing each message. The table's answers must be Platform::route's to the bit (the models' dates depend on them),
// whether they come from a zone whose host pairs all route alike, from the pair table, or from a route computed again
// after the pair was pushed out of the table (more peers per host than the table's ways).
//
// Suite names start with "models" so that `ctest -R models` selects them.
#include "models/RouteSums.hpp"

#include "common/Errors.hpp"
#include "platform/Platform.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace mpisim;

namespace {

// What the models computed per message before the table: the route, its latency as Platform::route sums it, the
// smallest bandwidth of its links.
models::RouteSums routed(const platform::Platform& platform, platform::HostId src, platform::HostId dst)
{
  std::vector<platform::LinkId> links;
  models::RouteSums sums;
  platform.route(src, dst, links, sums.latency);
  for (platform::LinkId link : links)
    sums.bandwidth = std::min(sums.bandwidth, platform.links()[link].bandwidth);
  return sums;
}

// Every ordered pair (a host with itself included), twice over in two orders: the first pass fills the table, the
// second reads it, and with more hosts than ways per host the second pass also meets pairs pushed out.
void expect_route_sums_everywhere(const platform::Platform& platform)
{
  models::RouteSumsTable table(platform);
  const auto hosts = static_cast<platform::HostId>(platform.hosts().size());
  for (int pass = 0; pass < 2; ++pass)
    for (platform::HostId i = 0; i < hosts; ++i)
      for (platform::HostId j = 0; j < hosts; ++j) {
        const platform::HostId src = pass == 0 ? i : hosts - 1 - i;
        const platform::HostId dst = pass == 0 ? j : (j * 7 + 3) % hosts;
        const models::RouteSums expected = routed(platform, src, dst);
        const models::RouteSums found = table.between(src, dst);
        ASSERT_EQ(std::bit_cast<uint64_t>(found.latency), std::bit_cast<uint64_t>(expected.latency))
            << src << " -> " << dst << ": " << found.latency << " vs " << expected.latency;
        ASSERT_EQ(found.bandwidth, expected.bandwidth) << src << " -> " << dst;
      }
}

} // namespace

TEST(models_route_sums, FlatClusterTakesTheZonesSums)
{
  // limiter, private up link, backbone, private down link, limiter: 1 + 3 + 1 us, smallest bandwidth the limiter's.
  auto platform = platform::generate_platform("cluster:12,bw=10Gbps,lat=1us,bb_bw=40Gbps,bb_lat=3us,limiter=5Gbps,"
                                              "loopback_bw=100Gbps,loopback_lat=0.1us");
  models::RouteSumsTable table(*platform);
  const models::RouteSums sums = table.between(0, 11);
  EXPECT_DOUBLE_EQ(sums.latency, 5e-6);
  EXPECT_DOUBLE_EQ(sums.bandwidth, 5e9 / 8);
  expect_route_sums_everywhere(*platform);
  // What xsim reads: the hosts' one zone, its sums; a host with itself has no zone answer (the loopback), and a route
  // asked without the table is the same.
  EXPECT_NE(table.zone_of(0), models::RouteSumsTable::kNoZone);
  EXPECT_EQ(table.zone_of(0), table.zone_of(11));
  ASSERT_NE(table.uniform_sums(table.zone_of(0)), nullptr);
  EXPECT_EQ(table.uniform_sums(table.zone_of(0))->latency, sums.latency);
  EXPECT_EQ(table.uniform_between(0, 11), table.uniform_sums(table.zone_of(0)));
  EXPECT_EQ(table.uniform_between(3, 3), nullptr);
  EXPECT_DOUBLE_EQ(table.route(3, 3).latency, 0.1e-6);
  EXPECT_DOUBLE_EQ(table.route(0, 11).latency, 5e-6);
}

TEST(models_route_sums, TorusRoutesDifferByPair)
{
  // 18 hosts, routes of 0 to 3 hops: no zone answer, each pair routed, 17 peers per host for 8 ways.
  auto platform = platform::generate_platform("torus:3x3x2,bw=10Gbps,lat=1us");
  models::RouteSumsTable table(*platform);
  EXPECT_DOUBLE_EQ(table.between(0, 1).latency, 1e-6);
  EXPECT_NE(table.between(0, 1).latency, table.between(0, 17).latency);
  EXPECT_EQ(table.uniform_between(0, 1), nullptr);
  expect_route_sums_everywhere(*platform);
}

TEST(models_route_sums, FatTreeAndDragonfly)
{
  expect_route_sums_everywhere(*platform::generate_platform("fattree:2;4,4;1,2;1,2,bw=10Gbps,lat=1us"));
  expect_route_sums_everywhere(*platform::generate_platform("dragonfly:2,2;2,2;2,1;2,bw=10Gbps,lat=1us"));
}

TEST(models_route_sums, UnknownHostIsBadInputAsTheRouteSays)
{
  auto platform = platform::generate_platform("cluster:2,bw=10Gbps,lat=1us");
  models::RouteSumsTable table(*platform);
  EXPECT_THROW(table.between(0, 5), InputError);
}
