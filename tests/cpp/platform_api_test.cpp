// The Platform interface on small files whose routes are also checked against SimGrid
// (platform_simgrid_routes_test): host order, attributes, properties, configuration, loopback
// rules, warnings, and the cost of routing on a large regular topology.
//
// Suite names repeat the file name so that `ctest -R platform` selects them.
#include "common/Errors.hpp"
#include "platform/NameIndex.hpp"
#include "platform/Platform.hpp"

#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace mpisim;
using namespace mpisim::platform;

namespace {

std::unique_ptr<Platform> load(const std::string& name)
{
  return load_platform(std::string(MPISIM_TEST_DATA) + "/platforms/" + name);
}

std::vector<std::string> route_names(const Platform& platform, const std::string& src, const std::string& dst,
                                     double* latency = nullptr)
{
  std::vector<LinkId> links{42, 43}; // route() replaces whatever the vector holds
  double total = -1;
  platform.route(*platform.find_host(src), *platform.find_host(dst), links, total);
  if (latency)
    *latency = total;
  std::vector<std::string> names;
  for (LinkId link : links)
    names.push_back(platform.links()[link].name);
  return names;
}

using Names = std::vector<std::string>;

TEST(platform_api, ClusterHostsFollowTheRadicalOrder)
{
  auto platform = load("clusters.xml");
  std::vector<std::string> names;
  for (const auto& host : platform->hosts())
    names.push_back(host.name);
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(Names(names.begin(), names.begin() + 4), (Names{"a-3.site", "a-4.site", "a-5.site", "a-1.site"}));
  EXPECT_EQ(names.size(), 13u);
}

TEST(platform_api, HostAttributesAndProperties)
{
  auto platform = load("full.xml");
  const auto& bob = platform->hosts()[*platform->find_host("bob")];
  EXPECT_DOUBLE_EQ(bob.speed, 1e9); // pstate="1" of "2Gf,1Gf,500Mf"
  EXPECT_EQ(bob.cores, 4);
  EXPECT_EQ(bob.properties, (std::map<std::string, std::string>{{"color", "blue"}}));
  EXPECT_DOUBLE_EQ(platform->hosts()[*platform->find_host("dave")].speed, 1.5e9);

  auto clusters = load("clusters.xml");
  const auto& a = clusters->hosts()[*clusters->find_host("a-1.site")];
  EXPECT_EQ(a.cores, 2);
  EXPECT_EQ(a.properties.at("rack"), "7"); // cluster properties go to every host
  EXPECT_DOUBLE_EQ(clusters->hosts()[*clusters->find_host("b0")].speed, 2e9);
}

TEST(platform_api, LookupsOfUnknownNames)
{
  auto platform = load("full.xml");
  EXPECT_FALSE(platform->find_host("mallory"));
  EXPECT_FALSE(platform->find_link("wan")); // split-duplex: only wan_UP and wan_DOWN exist
  EXPECT_TRUE(platform->find_link("wan_UP"));
  EXPECT_EQ(platform->links()[*platform->find_link("fat")].sharing, LinkSharing::Fatpipe);
  std::vector<LinkId> links;
  double latency = 0;
  EXPECT_THROW(platform->route(0, 99, links, latency), InputError);
}

TEST(platform_api, ConfigKeepsTheFirstValue)
{
  auto platform = load("full.xml");
  EXPECT_EQ(platform->config(), (std::map<std::string, std::string>{{"network/model", "SMPI"}}));
}

TEST(platform_api, RoutesAndLatency)
{
  auto platform = load("full.xml");
  double latency = 0;
  EXPECT_EQ(route_names(*platform, "alice", "bob", &latency), (Names{"lan", "wan_UP", "fat"}));
  EXPECT_DOUBLE_EQ(latency, 50e-6 + 10e-3 + 1e-6);
  // Symmetrical by default: reversed, with the other half of the split-duplex link.
  EXPECT_EQ(route_names(*platform, "bob", "alice"), (Names{"fat", "wan_DOWN", "lan"}));
  // The bypass route wins over the declared one.
  EXPECT_EQ(route_names(*platform, "alice", "carol"), (Names{"fat", "extra"}));
}

TEST(platform_api, LoopbackRules)
{
  auto full = load("full.xml");
  EXPECT_EQ(route_names(*full, "alice", "alice"), (Names{"self"}));     // declared
  EXPECT_EQ(route_names(*full, "bob", "bob"), (Names{"__loopback__"})); // SimGrid's global loopback
  const LinkSpec& loopback = full->links()[*full->find_link("__loopback__")];
  EXPECT_DOUBLE_EQ(loopback.bandwidth, 10e9);
  EXPECT_DOUBLE_EQ(loopback.latency, 0);
  EXPECT_EQ(loopback.sharing, LinkSharing::Fatpipe);

  auto cluster = load_platform(std::string(MPISIM_SOURCE_DIR) + "/platforms/cluster-16.xml");
  EXPECT_EQ(route_names(*cluster, "node-3", "node-3"), (Names{"c_link_3_loopback"}));
  EXPECT_FALSE(cluster->find_link("__loopback__")); // created only when a zone needs it

  // A FLAT cluster without loopback goes up and down its own link (the backbone counted once).
  auto clusters = load("clusters.xml");
  EXPECT_EQ(route_names(*clusters, "d2", "d2"),
            (Names{"cD_link_2_limiter", "cD_link_2_UP", "cD_backbone", "cD_link_2_DOWN"}));
}

TEST(platform_api, LoopbackLinkFollowsTheConfiguration)
{
  const std::string path = mpisim::testing_support::unique_temp_path("loopback_config.xml");
  std::ofstream(path) << "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
                         "<config><prop id=\"network/loopback-bw\" value=\"5GBps\"/>"
                         "<prop id=\"network/loopback-lat\" value=\"2us\"/></config>\n"
                         "<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n</platform>\n";
  auto platform = load_platform(path);
  const LinkSpec& loopback = platform->links()[*platform->find_link("__loopback__")];
  EXPECT_DOUBLE_EQ(loopback.bandwidth, 5e9);
  EXPECT_DOUBLE_EQ(loopback.latency, 2e-6);
}

TEST(platform_api, DeprecatedSpellingsAreReadWithWarnings)
{
  const std::string path = mpisim::testing_support::unique_temp_path("deprecated.xml");
  std::ofstream(path) << "<?xml version='1.0'?>\n<platform version=\"4\">\n"                            // 1-2
                         "<AS id=\"z\" routing=\"Full\">\n"                                             // 3
                         "  <host id=\"a\" speed=\"1Gf\" speed_file=\"a.profile\"/>\n"                  // 4
                         "  <host id=\"b\" speed=\"1Gf\"/>\n"                                           // 5
                         "  <link id=\"l\" bandwidth=\"1Gbps\" sharing_policy=\"FULLDUPLEX\"/>\n"       // 6
                         "  <route src=\"a\" dst=\"b\"><link_ctn id=\"l\" direction=\"UP\"/></route>\n" // 7
                         "</AS>\n"
                         "<trace_connect trace=\"t\" element=\"a\" kind=\"SPEED\"/>\n" // 9
                         "<actor host=\"a\" function=\"f\"><argument value=\"1\"/></actor>\n"
                         "</platform>\n";
  auto platform = load_platform(path);
  EXPECT_EQ(
      platform->warnings(),
      (std::vector<std::string>{path + ":3: <AS> is deprecated: use <zone>",
                                path + ":4: host 'a': speed_file ignored (mpisim does not vary resources over time)",
                                path + ":6: link 'l': sharing_policy FULLDUPLEX is deprecated: use SPLITDUPLEX",
                                path + ":9: <trace_connect> ignored: mpisim does not vary resources over time"}));
  EXPECT_EQ(route_names(*platform, "b", "a"), (Names{"l_DOWN"}));
}

TEST(platform_api, MissingRadicalsAreAnErrorExtraOnesAWarning)
{
  auto platform = load("torus.xml"); // radical 0-29 for a 24-host torus
  EXPECT_EQ(platform->hosts().size(), 24u);
  ASSERT_EQ(platform->warnings().size(), 1u);
  EXPECT_NE(platform->warnings()[0].find("the last 6 radicals are not used"), std::string::npos);
}

// A 16 384-host torus routes in time proportional to the route length, without per-pair tables.
TEST(platform_api, LargeTorusRoutesQuickly)
{
  auto start = std::chrono::steady_clock::now();
  auto platform = generate_platform("torus:32x32x16");
  ASSERT_EQ(platform->hosts().size(), 16384u);
  EXPECT_EQ(platform->links().size(), 16384u * 3 * 2);
  std::vector<LinkId> links;
  double latency = 0;
  size_t crossed = 0;
  uint64_t state = 1;
  for (int i = 0; i < 200000; i++) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    platform->route(static_cast<HostId>((state >> 33) % 16384), static_cast<HostId>((state >> 13) % 16384), links,
                    latency);
    crossed += links.size();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GT(crossed, 200000u * 10);
  EXPECT_LT(seconds, 10.0) << "200 000 routes on a 16 384-host torus took " << seconds << " s";
  // The farthest host: 16 + 16 + 8 hops, each one split-duplex link.
  platform->route(0, *platform->find_host("node-" + std::to_string(16 + 16 * 32 + 8 * 32 * 32)), links, latency);
  EXPECT_EQ(links.size(), 40u);
}

} // namespace

// NameIndex (platform/NameIndex.hpp): every name added is found with its id through several doublings of the table,
// a name never added is not, and a repeated name gives the id added first (as the maps it replaced did).
TEST(platform_api, NameIndexFindsEveryNameThroughGrowth)
{
  std::vector<std::string> names;
  NameIndex index;
  auto name_of = [&names](uint32_t id) { return std::string_view(names[id]); };
  for (uint32_t id = 0; id < 5000; ++id) {
    names.push_back("cluster_link_" + std::to_string(id) + (id % 2 ? "_UP" : "_DOWN"));
    index.add(id, names.back(), name_of);
  }
  EXPECT_EQ(index.size(), 5000u);
  for (uint32_t id = 0; id < 5000; ++id)
    EXPECT_EQ(index.find(names[id], name_of), std::optional<uint32_t>(id)) << names[id];
  EXPECT_EQ(index.find("cluster_link_5000_UP", name_of), std::nullopt);
  EXPECT_EQ(index.find("cluster_link_1_DOWN", name_of), std::nullopt); // odd ids are _UP
  EXPECT_EQ(index.find("", name_of), std::nullopt);
  EXPECT_EQ(NameIndex().find("x", name_of), std::nullopt); // empty table
  names.push_back(names[7]);
  index.add(5000, names.back(), name_of);
  EXPECT_EQ(index.find(names[7], name_of), std::optional<uint32_t>(7));
}

// Hosts and links of a generated cluster are found by the names SimGrid gives them, and unknown names are not.
TEST(platform_api, GeneratedClusterNamesFound)
{
  auto platform = generate_platform("cluster:1000");
  ASSERT_EQ(platform->hosts().size(), 1000u);
  for (HostId host = 0; host < 1000; host += 37)
    EXPECT_EQ(platform->find_host(platform->hosts()[host].name), std::optional<HostId>(host));
  for (LinkId link = 0; link < platform->links().size(); link += 41)
    EXPECT_EQ(platform->find_link(platform->links()[link].name), std::optional<LinkId>(link));
  EXPECT_EQ(platform->find_host("no-such-host"), std::nullopt);
  EXPECT_EQ(platform->find_link("no_such_link_UP"), std::nullopt);
}
