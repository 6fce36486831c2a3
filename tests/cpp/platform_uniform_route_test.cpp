// Zone::uniform_host_route: a zone answers one route for every pair of distinct hosts declared in it only when each
// pair's route crosses links of the same latencies and bandwidths in the same order. Checked against route() for every
// pair of small platforms; the zones that may not claim it (a host link of another bandwidth, a link two hosts share,
// a routing that cannot tell) say no.
//
// Suite names repeat the file name so that `ctest -R platform` selects them.
#include "platform/Platform.hpp"
#include "platform/Zone.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

using namespace mpisim;
using namespace mpisim::platform;

namespace {

const Zone& zone_of(const Platform& platform, const std::string& host)
{
  return *platform.zones_of(*platform.find_host(host)).back();
}

// The latencies and bandwidths of a route's links, in order.
std::vector<std::pair<double, double>> costs(const Platform& platform, const std::vector<LinkId>& links)
{
  std::vector<std::pair<double, double>> out;
  out.reserve(links.size());
  for (LinkId link : links)
    out.emplace_back(platform.links()[link].latency, platform.links()[link].bandwidth);
  return out;
}

// The route's latency, summed in route order (as Platform::route sums).
double latency_sum(const Platform& platform, const std::vector<LinkId>& links)
{
  double latency = 0;
  for (LinkId link : links)
    latency += platform.links()[link].latency;
  return latency;
}

// Every pair of distinct hosts of the platform (all in `zone`) has the uniform route's costs and latency sum.
void expect_every_pair_alike(const Platform& platform, const Zone& zone)
{
  std::vector<LinkId> uniform;
  ASSERT_TRUE(zone.uniform_host_route(platform.links(), uniform));
  const double uniform_latency = latency_sum(platform, uniform);
  std::vector<LinkId> links;
  double latency = 0;
  for (HostId src = 0; src < platform.hosts().size(); src++)
    for (HostId dst = 0; dst < platform.hosts().size(); dst++) {
      if (src == dst)
        continue;
      platform.route(src, dst, links, latency);
      EXPECT_EQ(costs(platform, links), costs(platform, uniform)) << src << " -> " << dst;
      EXPECT_EQ(latency, uniform_latency) << src << " -> " << dst; // bit for bit: summed in the same order
    }
}

std::string cluster_zone(const std::string& host_links)
{
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Cluster\">\n"
         "  <host id=\"a\" speed=\"1Gf\"/>\n  <host id=\"b\" speed=\"1Gf\"/>\n  <host id=\"c\" speed=\"1Gf\"/>\n"
         "  <link id=\"la\" bandwidth=\"1Gbps\" latency=\"1us\"/>\n"
         "  <link id=\"lb\" bandwidth=\"1Gbps\" latency=\"1us\"/>\n"
         "  <link id=\"lc\" bandwidth=\"1Gbps\" latency=\"1us\"/>\n"
         "  <link id=\"slow\" bandwidth=\"100Mbps\" latency=\"1us\"/>\n" +
         host_links + "</zone>\n</platform>\n";
}

} // namespace

TEST(platform_uniform_route, FlatClusterOfPrivateLinks)
{
  auto platform = generate_platform("cluster:5,bw=10Gbps,lat=1us");
  std::vector<LinkId> links;
  ASSERT_TRUE(zone_of(*platform, "node-0").uniform_host_route(platform->links(), links));
  const double latency = latency_sum(*platform, links);
  // A private link up, the destination's down: 2 x 1 us.
  EXPECT_EQ(links.size(), 2u);
  EXPECT_DOUBLE_EQ(latency, 2e-6);
  expect_every_pair_alike(*platform, zone_of(*platform, "node-0"));
}

TEST(platform_uniform_route, FlatClusterWithBackboneLimitersLoopbacksAndSplitDuplex)
{
  // limiter(A) link_A_UP backbone link_B_DOWN limiter(B): the backbone is every host's, the rest each host's own.
  auto platform = generate_platform("cluster:6,bw=10Gbps,lat=1us,bb_bw=40Gbps,bb_lat=3us,limiter=5Gbps,"
                                    "loopback_bw=100Gbps,loopback_lat=0.1us,sharing=SPLITDUPLEX");
  std::vector<LinkId> links;
  ASSERT_TRUE(zone_of(*platform, "node-0").uniform_host_route(platform->links(), links));
  const double latency = latency_sum(*platform, links);
  EXPECT_EQ(links.size(), 5u);
  EXPECT_DOUBLE_EQ(latency, 1e-6 + 3e-6 + 1e-6);
  expect_every_pair_alike(*platform, zone_of(*platform, "node-0"));
}

TEST(platform_uniform_route, SharedPrivateLinksCrossedOnce)
{
  // SHARED private links: a host's link is up and down at once; a pair crosses its own and the other's.
  auto platform = generate_platform("cluster:4,bw=10Gbps,lat=1us,sharing=SHARED,bb_bw=1Gbps,bb_lat=0s");
  expect_every_pair_alike(*platform, zone_of(*platform, "node-0"));
}

TEST(platform_uniform_route, ClusterZoneWithAlikeHostLinks)
{
  auto platform = load_platform_text("alike.xml", cluster_zone("  <host_link id=\"a\" up=\"la\" down=\"la\"/>\n"
                                                               "  <host_link id=\"b\" up=\"lb\" down=\"lb\"/>\n"
                                                               "  <host_link id=\"c\" up=\"lc\" down=\"lc\"/>\n"));
  expect_every_pair_alike(*platform, zone_of(*platform, "a"));
}

TEST(platform_uniform_route, ClusterZoneWithASlowerHostLinkIsNotUniform)
{
  auto platform = load_platform_text("slow.xml", cluster_zone("  <host_link id=\"a\" up=\"la\" down=\"la\"/>\n"
                                                              "  <host_link id=\"b\" up=\"lb\" down=\"lb\"/>\n"
                                                              "  <host_link id=\"c\" up=\"slow\" down=\"lc\"/>\n"));
  std::vector<LinkId> links{7};
  EXPECT_FALSE(zone_of(*platform, "a").uniform_host_route(platform->links(), links));
  EXPECT_TRUE(links.empty());
}

TEST(platform_uniform_route, ClusterZoneWhereTwoHostsShareALinkIsNotUniform)
{
  // a -> b crosses la once (a's up and b's down are the same link), a -> c crosses la and lc: not alike.
  auto platform = load_platform_text("shared.xml", cluster_zone("  <host_link id=\"a\" up=\"la\" down=\"la\"/>\n"
                                                                "  <host_link id=\"b\" up=\"la\" down=\"la\"/>\n"
                                                                "  <host_link id=\"c\" up=\"lc\" down=\"lc\"/>\n"));
  std::vector<LinkId> links{7};
  EXPECT_FALSE(zone_of(*platform, "a").uniform_host_route(platform->links(), links));
}

TEST(platform_uniform_route, RoutingsThatCannotTellSayNo)
{
  auto torus = generate_platform("torus:2x2x2,bw=10Gbps,lat=1us");
  std::vector<LinkId> links;
  EXPECT_FALSE(zone_of(*torus, torus->hosts().front().name).uniform_host_route(torus->links(), links));
}
