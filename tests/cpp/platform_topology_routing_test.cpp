// The generated cluster topologies (TORUS, FAT_TREE, DRAGONFLY) against the worked examples of
// docs/specifications/generated-topology-routing.md §6: link names in creation order, routes link
// by link, latencies, and the messages for bad topo_parameters. The examples were checked against
// SimGrid 3.32 (tests/simgrid/route_dump.cpp); the few cases SimGrid cannot run (fat-tree switch
// ids below zero are the exception: SimGrid names them so) follow the page's rules, computed by hand.
//
// Suite names repeat the file name so that `ctest -R platform` selects them.
#include "common/Errors.hpp"
#include "platform/Platform.hpp"

#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace mpisim;
using namespace mpisim::platform;

namespace {

using Names = std::vector<std::string>;

// "a b c" -> {"a", "b", "c"}: routes written as in the page's tables.
Names words(const std::string& text)
{
  Names names;
  std::istringstream in(text);
  for (std::string name; in >> name;)
    names.push_back(name);
  return names;
}

std::string write_platform(const std::string& body)
{
  static int counter = 0;
  const std::string path = testing_support::unique_temp_path("topology_" + std::to_string(counter++) + ".xml");
  std::ofstream(path) << "<?xml version='1.0'?>\n<platform version=\"4.1\">\n" << body << "</platform>\n";
  return path;
}

// One cluster, line 3 of its file, with the page's common attributes: bw 1GBps, lat 1us.
std::string cluster_element(const std::string& id, const std::string& prefix, const std::string& radicals,
                            const std::string& topology, const std::string& parameters, const std::string& extra = "")
{
  return "<cluster id=\"" + id + "\" prefix=\"" + prefix + "\" suffix=\"\" radical=\"" + radicals +
         "\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"" + topology + "\" topo_parameters=\"" + parameters +
         "\" " + extra + "/>\n";
}

std::unique_ptr<Platform> load_cluster(const std::string& id, const std::string& prefix, const std::string& radicals,
                                       const std::string& topology, const std::string& parameters,
                                       const std::string& extra = "")
{
  return load_platform(write_platform(cluster_element(id, prefix, radicals, topology, parameters, extra)));
}

std::string load_error(const std::string& topology, const std::string& parameters, const std::string& radicals = "0-3",
                       const std::string& extra = "")
{
  const std::string path = write_platform(cluster_element("c", "n", radicals, topology, parameters, extra));
  try {
    load_platform(path);
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path);
    EXPECT_EQ(error.line(), 3);
    return error.message();
  }
  return "no error";
}

Names route(const Platform& platform, const std::string& src, const std::string& dst, double* latency = nullptr)
{
  std::vector<LinkId> links;
  double total = -1;
  platform.route(*platform.find_host(src), *platform.find_host(dst), links, total);
  if (latency)
    *latency = total;
  Names names;
  for (LinkId link : links)
    names.push_back(platform.links()[link].name);
  return names;
}

Names link_names(const Platform& platform, size_t first, size_t count)
{
  Names names;
  for (size_t id = first; id < first + count && id < platform.links().size(); id++)
    names.push_back(platform.links()[id].name);
  return names;
}

// <name>_UP, <name>_DOWN for each name: SPLITDUPLEX cables in creation order.
Names both_directions(const Names& cables)
{
  Names names;
  for (const auto& cable : cables) {
    names.push_back(cable + "_UP");
    names.push_back(cable + "_DOWN");
  }
  return names;
}

// --- §6.1 torus 3,2,2 ---

std::unique_ptr<Platform> torus_322(const std::string& extra = "")
{
  return load_cluster("tor", "t", "0-11", "TORUS", "3,2,2", extra);
}

TEST(platform_topology_routing, Torus322LinksFollowTheirOwner)
{
  auto platform = torus_322();
  EXPECT_EQ(platform->links().size(), 12u * 3 * 2);
  // Host r's three cables are ids 6r..6r+5, towards next_0, next_1, next_2.
  EXPECT_EQ(link_names(*platform, 12, 6),
            both_directions({"tor_link_from_2_to_0", "tor_link_from_2_to_5", "tor_link_from_2_to_8"}));
  EXPECT_EQ(link_names(*platform, 66, 6),
            both_directions({"tor_link_from_11_to_9", "tor_link_from_11_to_8", "tor_link_from_11_to_5"}));
}

TEST(platform_topology_routing, Torus322Routes)
{
  auto platform = torus_322();
  EXPECT_EQ(route(*platform, "t0", "t11"),
            words("tor_link_from_2_to_0_DOWN tor_link_from_2_to_5_UP tor_link_from_5_to_11_UP"));
  EXPECT_EQ(route(*platform, "t11", "t0"),
            words("tor_link_from_11_to_9_UP tor_link_from_6_to_9_DOWN tor_link_from_0_to_6_DOWN"));
  EXPECT_EQ(route(*platform, "t2", "t9"),
            words("tor_link_from_2_to_0_UP tor_link_from_0_to_3_UP tor_link_from_3_to_9_UP"));
  double latency = -1;
  EXPECT_EQ(route(*platform, "t5", "t5", &latency), Names{});
  EXPECT_EQ(latency, 0);
  route(*platform, "t0", "t11", &latency);
  EXPECT_DOUBLE_EQ(latency, 3e-6);
}

TEST(platform_topology_routing, Torus322LimitersSurroundEveryHop)
{
  auto platform = torus_322("limiter_link=\"2GBps\"");
  EXPECT_EQ(platform->links().size(), 12u * 7);
  EXPECT_EQ(link_names(*platform, 0, 8),
            (Names{"tor_link_0_limiter", "tor_link_from_0_to_1_UP", "tor_link_from_0_to_1_DOWN",
                   "tor_link_from_0_to_3_UP", "tor_link_from_0_to_3_DOWN", "tor_link_from_0_to_6_UP",
                   "tor_link_from_0_to_6_DOWN", "tor_link_1_limiter"}));
  EXPECT_EQ(route(*platform, "t0", "t11"),
            words("tor_link_0_limiter tor_link_from_2_to_0_DOWN tor_link_2_limiter tor_link_from_2_to_5_UP "
                  "tor_link_5_limiter tor_link_from_5_to_11_UP tor_link_11_limiter"));
  EXPECT_EQ(route(*platform, "t5", "t5"), words("tor_link_5_limiter"));
}

TEST(platform_topology_routing, Torus322LoopbackOnlyForAHostToItself)
{
  auto platform = torus_322("loopback_bw=\"10GBps\" loopback_lat=\"10ns\"");
  double latency = -1;
  EXPECT_EQ(route(*platform, "t5", "t5", &latency), words("tor_link_5_loopback"));
  EXPECT_DOUBLE_EQ(latency, 10e-9);
  EXPECT_EQ(route(*platform, "t0", "t11"),
            words("tor_link_from_2_to_0_DOWN tor_link_from_2_to_5_UP tor_link_from_5_to_11_UP"));
  EXPECT_EQ(platform->links()[*platform->find_link("tor_link_5_loopback")].sharing, LinkSharing::Fatpipe);
}

// --- §6.2 torus 4,2: even rings, half-way cases ---

TEST(platform_topology_routing, Torus42LinkIds)
{
  auto platform = load_cluster("tor", "t", "0-7", "TORUS", "4,2");
  const Names cables = {"from_0_to_1", "from_0_to_4", "from_1_to_2", "from_1_to_5", "from_2_to_3", "from_2_to_6",
                        "from_3_to_0", "from_3_to_7", "from_4_to_5", "from_4_to_0", "from_5_to_6", "from_5_to_1",
                        "from_6_to_7", "from_6_to_2", "from_7_to_4", "from_7_to_3"};
  Names expected;
  for (const auto& cable : cables)
    expected.push_back("tor_link_" + cable);
  EXPECT_EQ(platform->links().size(), 32u);
  EXPECT_EQ(link_names(*platform, 0, 32), both_directions(expected));
}

TEST(platform_topology_routing, Torus42HalfWayGoesForwardExceptFromTheMiddleToZero)
{
  auto platform = load_cluster("tor", "t", "0-7", "TORUS", "4,2");
  EXPECT_EQ(route(*platform, "t0", "t2"), words("tor_link_from_0_to_1_UP tor_link_from_1_to_2_UP"));
  EXPECT_EQ(route(*platform, "t2", "t0"), words("tor_link_from_1_to_2_DOWN tor_link_from_0_to_1_DOWN"));
  EXPECT_EQ(route(*platform, "t1", "t3"), words("tor_link_from_1_to_2_UP tor_link_from_2_to_3_UP"));
  EXPECT_EQ(route(*platform, "t3", "t1"), words("tor_link_from_3_to_0_UP tor_link_from_0_to_1_UP"));
  EXPECT_EQ(route(*platform, "t0", "t4"), words("tor_link_from_0_to_4_UP"));
  EXPECT_EQ(route(*platform, "t4", "t0"), words("tor_link_from_0_to_4_DOWN"));
  EXPECT_EQ(route(*platform, "t7", "t1"),
            words("tor_link_from_7_to_4_UP tor_link_from_4_to_5_UP tor_link_from_1_to_5_DOWN"));
  EXPECT_EQ(route(*platform, "t6", "t0"),
            words("tor_link_from_5_to_6_DOWN tor_link_from_4_to_5_DOWN tor_link_from_0_to_4_DOWN"));
  EXPECT_EQ(route(*platform, "t0", "t0"), Names{});
}

TEST(platform_topology_routing, TorusParameterErrors)
{
  const std::string expected = " (expected positive integers separated by commas)";
  EXPECT_EQ(load_error("TORUS", "2,x"), "bad torus dimension 'x' in '2,x'" + expected);
  EXPECT_EQ(load_error("TORUS", ""), "bad torus dimension '' in ''" + expected);
  EXPECT_EQ(load_error("TORUS", "4,,1"), "bad torus dimension '' in '4,,1'" + expected);
  EXPECT_EQ(load_error("TORUS", "2,0"), "bad torus dimension '0' in '2,0'" + expected);
  // A dimension of 1 is allowed: its cable goes from a host to itself and is never used.
  auto platform = load_cluster("tor", "t", "0-2", "TORUS", "3,1");
  EXPECT_EQ(link_names(*platform, 0, 4), both_directions({"tor_link_from_0_to_1", "tor_link_from_0_to_0"}));
  EXPECT_EQ(route(*platform, "t0", "t2"), words("tor_link_from_2_to_0_DOWN"));
}

TEST(platform_topology_routing, CommonChecksAndWarnings)
{
  EXPECT_EQ(load_error("TORUS", "3,2", "0-4"),
            "cluster 'c': topology TORUS '3,2' has 6 hosts but the radicals name only 5");
  EXPECT_EQ(load_error("FAT_TREE", "1;4;1;1", "0-3", "loopback_lat=\"1us\""),
            "link 'c_link_0_loopback' needs a positive bandwidth");
  const std::string path = write_platform(
      cluster_element("c", "n", "0-7", "DRAGONFLY", "1,1;1,1;2,1;2", "sharing_policy=\"FATPIPE\" bb_bw=\"1GBps\""));
  auto platform = load_platform(path);
  EXPECT_EQ(platform->hosts().size(), 4u);
  EXPECT_EQ(platform->warnings(),
            (Names{path + ":3: cluster 'c': topology DRAGONFLY '1,1;1,1;2,1;2' has 4 hosts; the last 4 radicals are "
                          "not used",
                   path + ":3: cluster 'c': sharing_policy FATPIPE gives SHARED links (as in SimGrid 3.32, which "
                          "ignores it here)",
                   path + ":3: cluster 'c': bb_bw, bb_lat and router_id apply to FLAT clusters only and are "
                          "ignored"}));
  EXPECT_EQ(platform->links()[0].sharing, LinkSharing::Shared);
}

// --- §6.3 fat tree 2;2,2;1,2;1,2 ---

const Names kFatTreeCables = {"link_from_0_7_0", "link_from_1_7_1", "link_from_2_6_2",  "link_from_3_6_3",
                              "link_from_7_5_4", "link_from_7_5_5", "link_from_7_4_6",  "link_from_7_4_7",
                              "link_from_6_5_8", "link_from_6_5_9", "link_from_6_4_10", "link_from_6_4_11"};

std::unique_ptr<Platform> fat_tree(const std::string& extra = "")
{
  return load_cluster("ft", "h", "0-3", "FAT_TREE", "2;2,2;1,2;1,2", extra);
}

TEST(platform_topology_routing, FatTreeCables)
{
  auto platform = fat_tree();
  EXPECT_EQ(platform->links().size(), 24u);
  EXPECT_EQ(link_names(*platform, 0, 24), both_directions(kFatTreeCables));
}

TEST(platform_topology_routing, FatTreeRoutesDestinationModK)
{
  auto platform = fat_tree();
  EXPECT_EQ(route(*platform, "h0", "h1"), words("link_from_0_7_0_UP link_from_1_7_1_DOWN"));
  EXPECT_EQ(route(*platform, "h0", "h2"),
            words("link_from_0_7_0_UP link_from_7_5_5_UP link_from_6_5_8_DOWN link_from_2_6_2_DOWN"));
  EXPECT_EQ(route(*platform, "h0", "h3"),
            words("link_from_0_7_0_UP link_from_7_4_7_UP link_from_6_4_10_DOWN link_from_3_6_3_DOWN"));
  EXPECT_EQ(route(*platform, "h1", "h2"),
            words("link_from_1_7_1_UP link_from_7_5_5_UP link_from_6_5_9_DOWN link_from_2_6_2_DOWN"));
  EXPECT_EQ(route(*platform, "h3", "h0"),
            words("link_from_3_6_3_UP link_from_6_5_8_UP link_from_7_5_5_DOWN link_from_0_7_0_DOWN"));
  EXPECT_EQ(route(*platform, "h2", "h1"),
            words("link_from_2_6_2_UP link_from_6_4_10_UP link_from_7_4_6_DOWN link_from_1_7_1_DOWN"));
  double latency = -1;
  EXPECT_EQ(route(*platform, "h0", "h0", &latency), words("link_from_0_7_0_UP link_from_0_7_0_DOWN"));
  EXPECT_DOUBLE_EQ(latency, 2e-6);
  EXPECT_EQ(route(*platform, "h3", "h3"), words("link_from_3_6_3_UP link_from_3_6_3_DOWN"));
}

TEST(platform_topology_routing, FatTreeLimiters)
{
  auto platform = fat_tree("limiter_link=\"2GBps\"");
  EXPECT_EQ(platform->links().size(), 8u + 24u);
  EXPECT_EQ(link_names(*platform, 0, 8),
            words("ft_link_0_limiter ft_link_1_limiter ft_link_2_limiter ft_link_3_limiter ft_link_7_limiter "
                  "ft_link_6_limiter ft_link_5_limiter ft_link_4_limiter"));
  EXPECT_EQ(link_names(*platform, 8, 24), both_directions(kFatTreeCables));
  EXPECT_EQ(route(*platform, "h0", "h3"),
            words("ft_link_0_limiter link_from_0_7_0_UP ft_link_7_limiter link_from_7_4_7_UP link_from_6_4_10_DOWN "
                  "ft_link_4_limiter link_from_3_6_3_DOWN ft_link_6_limiter ft_link_3_limiter"));
  EXPECT_EQ(route(*platform, "h0", "h1"),
            words("ft_link_0_limiter link_from_0_7_0_UP link_from_1_7_1_DOWN ft_link_7_limiter ft_link_1_limiter"));
  EXPECT_EQ(route(*platform, "h0", "h0"),
            words("ft_link_0_limiter link_from_0_7_0_UP link_from_0_7_0_DOWN ft_link_7_limiter ft_link_0_limiter"));
  const LinkSpec& limiter = platform->links()[*platform->find_link("ft_link_5_limiter")];
  EXPECT_EQ(limiter.bandwidth, 2e9);
  EXPECT_EQ(limiter.latency, 0);
}

TEST(platform_topology_routing, FatTreeLoopback)
{
  auto platform = fat_tree("loopback_bw=\"10GBps\" loopback_lat=\"10ns\"");
  EXPECT_EQ(route(*platform, "h0", "h0"), words("ft_link_0_loopback"));
  EXPECT_EQ(route(*platform, "h0", "h3"),
            words("link_from_0_7_0_UP link_from_7_4_7_UP link_from_6_4_10_DOWN link_from_3_6_3_DOWN"));
}

// The downward port scan carries on from the port used one level up.
TEST(platform_topology_routing, FatTreeDownwardScanCarriesOn)
{
  auto platform = load_cluster("ft", "h", "0-3", "FAT_TREE", "2;2,2;1,1;2,1");
  EXPECT_EQ(
      link_names(*platform, 0, 20),
      both_directions({"link_from_0_7_0", "link_from_0_7_1", "link_from_1_7_2", "link_from_1_7_3", "link_from_2_6_4",
                       "link_from_2_6_5", "link_from_3_6_6", "link_from_3_6_7", "link_from_7_5_8", "link_from_6_5_9"}));
  EXPECT_EQ(route(*platform, "h0", "h2"),
            words("link_from_0_7_0_UP link_from_7_5_8_UP link_from_6_5_9_DOWN link_from_2_6_5_DOWN"));
  EXPECT_EQ(route(*platform, "h0", "h3"),
            words("link_from_0_7_1_UP link_from_7_5_8_UP link_from_6_5_9_DOWN link_from_3_6_7_DOWN"));
  EXPECT_EQ(route(*platform, "h2", "h0"),
            words("link_from_2_6_4_UP link_from_6_5_9_UP link_from_7_5_8_DOWN link_from_0_7_1_DOWN"));
  EXPECT_EQ(route(*platform, "h0", "h1"), words("link_from_0_7_1_UP link_from_1_7_2_DOWN"));
  EXPECT_EQ(route(*platform, "h1", "h1"), words("link_from_1_7_3_UP link_from_1_7_3_DOWN"));
}

// Positions and cable numbers run across all the fat trees of a platform. A one-host tree first
// shifts the second tree's positions by one: h0 -> h2 then climbs to switch 4 (P(t) = 3), not 5.
TEST(platform_topology_routing, FatTreePositionsAndCablesRunAcrossClusters)
{
  auto platform = load_platform(
      write_platform("<zone id=\"pair\" routing=\"Full\">\n" + cluster_element("one", "o", "0", "FAT_TREE", "1;1;1;1") +
                     cluster_element("ft", "h", "0-3", "FAT_TREE", "2;2,2;1,2;1,2") + "</zone>\n"));
  EXPECT_EQ(link_names(*platform, 0, 4), both_directions({"link_from_0_1_0", "link_from_0_7_1"}));
  EXPECT_EQ(route(*platform, "h0", "h2"),
            words("link_from_0_7_1_UP link_from_7_4_8_UP link_from_6_4_12_DOWN link_from_2_6_3_DOWN"));
}

// SimGrid writes switch ids below zero with a minus sign (more than 2H switches): 1 host, 4
// switches of level 1 (ids 1, 0, -1, -2), 16 of level 2 (ids -3 .. -18).
TEST(platform_topology_routing, FatTreeSwitchIdsBelowZeroHaveAMinusSign)
{
  auto platform = load_cluster("ft", "h", "0", "FAT_TREE", "2;1,1;4,4;1,1");
  EXPECT_EQ(platform->links().size(), (4u + 16u) * 2);
  EXPECT_EQ(link_names(*platform, 0, 12),
            both_directions({"link_from_0_1_0", "link_from_0_0_1", "link_from_0_-1_2", "link_from_0_-2_3",
                             "link_from_1_-3_4", "link_from_1_-7_5"}));
  EXPECT_EQ(link_names(*platform, 16, 2), both_directions({"link_from_0_-4_8"}));
  EXPECT_EQ(link_names(*platform, 38, 2), both_directions({"link_from_-2_-18_19"}));
  EXPECT_EQ(route(*platform, "h0", "h0"), words("link_from_0_1_0_UP link_from_0_1_0_DOWN"));
}

// More switches than hosts: switch ids reach the host range and the limiters collide.
TEST(platform_topology_routing, FatTreeSwitchLimitersCollideWithHostOnes)
{
  EXPECT_EQ(load_error("FAT_TREE", "1;2;3;1", "0-1", "limiter_link=\"2GBps\""), "duplicate link 'c_link_1_limiter'");
}

TEST(platform_topology_routing, FatTreeParameterErrors)
{
  const std::string expected = " (expected positive integers separated by commas)";
  EXPECT_EQ(load_error("FAT_TREE", "2;2,2;1,2"),
            "fat-tree parameters '2;2,2;1,2' must have 4 parts separated by ';': levels;children;parents;cables");
  EXPECT_EQ(load_error("FAT_TREE", "2;2,2;1,2;1,2;"),
            "fat-tree parameters '2;2,2;1,2;1,2;' must have 4 parts separated by ';': levels;children;parents;cables");
  EXPECT_EQ(load_error("FAT_TREE", "0;2;1;1"), "bad fat-tree level count '0' in '0'" + expected);
  EXPECT_EQ(load_error("FAT_TREE", "1,2;2;1;1"), "fat-tree level count '1,2' must be one number");
  EXPECT_EQ(load_error("FAT_TREE", "2;2,x;1,2;1,2"), "bad fat-tree child count 'x' in '2,x'" + expected);
  EXPECT_EQ(load_error("FAT_TREE", "2;2,2;;1,2"), "bad fat-tree parent count '' in ''" + expected);
  // The three lists are parsed before their lengths are checked.
  EXPECT_EQ(load_error("FAT_TREE", "2;2;1;0"), "bad fat-tree cable count '0' in '0'" + expected);
  EXPECT_EQ(load_error("FAT_TREE", "2;2;1,2;1,2"), "fat-tree parameters '2;2;1,2;1,2': 2 levels but the child "
                                                   "counts '2' have 1");
  EXPECT_EQ(load_error("FAT_TREE", "2;2,2;1;1"), "fat-tree parameters '2;2,2;1;1': 2 levels but the parent counts "
                                                 "'1' have 1");
  EXPECT_EQ(load_error("FAT_TREE", "2;2,2;1,2;1,2,1"), "fat-tree parameters '2;2,2;1,2;1,2,1': 2 levels but the "
                                                       "cable counts '1,2,1' have 3");
}

// --- §6.4 dragonfly 2,1;2,1;2,1;2 ---

// Cables by number k: link ids 2k and 2k+1 for SPLITDUPLEX.
Names dragonfly_cables(int first)
{
  Names names;
  int k = first;
  for (int router = 0; router < 8; router++)
    for (int node = 0; node < 2; node++)
      names.push_back("local_link_from_router_" + std::to_string(router) + "_to_node_" + std::to_string(node) + "_" +
                      std::to_string(k++));
  for (int chassis : {0, 1, 0, 1})
    names.push_back("green_link_in_chassis_" + std::to_string(chassis) + "_between_routers_0_and_1_" +
                    std::to_string(k++));
  for (int group : {0, 1})
    for (int blade : {0, 1})
      names.push_back("black_link_in_group_" + std::to_string(group) + "_between_chassis_0_and_1_blade_" +
                      std::to_string(blade) + "_" + std::to_string(k++));
  names.push_back("blue_link_between_group_0_and_1_routers_1_and_4_" + std::to_string(k++));
  return names;
}

std::unique_ptr<Platform> dragonfly(const std::string& extra = "")
{
  return load_cluster("df", "n", "0-15", "DRAGONFLY", "2,1;2,1;2,1;2", extra);
}

TEST(platform_topology_routing, DragonflyCables)
{
  auto platform = dragonfly();
  EXPECT_EQ(platform->links().size(), 50u);
  EXPECT_EQ(link_names(*platform, 0, 50), both_directions(dragonfly_cables(0)));
}

TEST(platform_topology_routing, DragonflyMinimalRoutes)
{
  auto platform = dragonfly();
  const std::string n0_up = "local_link_from_router_0_to_node_0_0_UP ";
  EXPECT_EQ(route(*platform, "n0", "n1"), words(n0_up + "local_link_from_router_0_to_node_1_1_DOWN"));
  EXPECT_EQ(route(*platform, "n0", "n2"), words(n0_up + "green_link_in_chassis_0_between_routers_0_and_1_16_UP "
                                                        "local_link_from_router_1_to_node_0_2_DOWN"));
  EXPECT_EQ(route(*platform, "n0", "n6"), words(n0_up + "green_link_in_chassis_0_between_routers_0_and_1_16_UP "
                                                        "black_link_in_group_0_between_chassis_0_and_1_blade_1_21_UP "
                                                        "local_link_from_router_3_to_node_0_6_DOWN"));
  EXPECT_EQ(route(*platform, "n4", "n6"),
            words("local_link_from_router_2_to_node_0_4_UP green_link_in_chassis_1_between_routers_0_and_1_17_UP "
                  "black_link_in_group_0_between_chassis_0_and_1_blade_1_21_UP "
                  "local_link_from_router_3_to_node_0_6_DOWN"));
  EXPECT_EQ(route(*platform, "n6", "n0"),
            words("local_link_from_router_3_to_node_0_6_UP green_link_in_chassis_1_between_routers_0_and_1_17_DOWN "
                  "local_link_from_router_0_to_node_0_0_DOWN"));
  EXPECT_EQ(route(*platform, "n4", "n0"), words("local_link_from_router_2_to_node_0_4_UP "
                                                "black_link_in_group_0_between_chassis_0_and_1_blade_0_20_DOWN "
                                                "local_link_from_router_0_to_node_0_0_DOWN"));
  EXPECT_EQ(route(*platform, "n0", "n8"), words(n0_up + "green_link_in_chassis_0_between_routers_0_and_1_16_UP "
                                                        "blue_link_between_group_0_and_1_routers_1_and_4_24_UP "
                                                        "local_link_from_router_4_to_node_0_8_DOWN"));
  EXPECT_EQ(route(*platform, "n0", "n15"), words(n0_up + "green_link_in_chassis_0_between_routers_0_and_1_16_UP "
                                                         "blue_link_between_group_0_and_1_routers_1_and_4_24_UP "
                                                         "green_link_in_chassis_0_between_routers_0_and_1_18_UP "
                                                         "black_link_in_group_1_between_chassis_0_and_1_blade_1_23_UP "
                                                         "local_link_from_router_7_to_node_1_15_DOWN"));
  EXPECT_EQ(route(*platform, "n15", "n0"),
            words("local_link_from_router_7_to_node_1_15_UP green_link_in_chassis_1_between_routers_0_and_1_19_DOWN "
                  "black_link_in_group_1_between_chassis_0_and_1_blade_0_22_DOWN "
                  "blue_link_between_group_0_and_1_routers_1_and_4_24_DOWN "
                  "green_link_in_chassis_0_between_routers_0_and_1_16_DOWN "
                  "local_link_from_router_0_to_node_0_0_DOWN"));
  EXPECT_EQ(route(*platform, "n3", "n3"),
            words("local_link_from_router_1_to_node_1_3_UP local_link_from_router_1_to_node_1_3_DOWN"));
}

TEST(platform_topology_routing, DragonflySharedCablesServeBothWays)
{
  auto platform = dragonfly("sharing_policy=\"SHARED\"");
  EXPECT_EQ(link_names(*platform, 0, 25), dragonfly_cables(0));
  EXPECT_EQ(platform->links()[24].bandwidth, 1e9);
  double latency = -1;
  EXPECT_EQ(route(*platform, "n3", "n3", &latency),
            words("local_link_from_router_1_to_node_1_3 local_link_from_router_1_to_node_1_3"));
  EXPECT_DOUBLE_EQ(latency, 2e-6);
  EXPECT_EQ(route(*platform, "n15", "n0"),
            words("local_link_from_router_7_to_node_1_15 green_link_in_chassis_1_between_routers_0_and_1_19 "
                  "black_link_in_group_1_between_chassis_0_and_1_blade_0_22 "
                  "blue_link_between_group_0_and_1_routers_1_and_4_24 "
                  "green_link_in_chassis_0_between_routers_0_and_1_16 local_link_from_router_0_to_node_0_0"));
}

TEST(platform_topology_routing, DragonflyLimiters)
{
  auto platform = dragonfly("limiter_link=\"2GBps\"");
  Names limiters;
  for (int id : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 31, 30, 29, 28, 27, 26, 25, 24})
    limiters.push_back("df_link_" + std::to_string(id) + "_limiter");
  EXPECT_EQ(link_names(*platform, 0, 24), limiters);
  EXPECT_EQ(link_names(*platform, 24, 50), both_directions(dragonfly_cables(0)));
  EXPECT_EQ(route(*platform, "n0", "n15"),
            words("df_link_0_limiter local_link_from_router_0_to_node_0_0_UP df_link_31_limiter "
                  "green_link_in_chassis_0_between_routers_0_and_1_16_UP "
                  "blue_link_between_group_0_and_1_routers_1_and_4_24_UP df_link_30_limiter df_link_27_limiter "
                  "green_link_in_chassis_0_between_routers_0_and_1_18_UP df_link_26_limiter "
                  "black_link_in_group_1_between_chassis_0_and_1_blade_1_23_UP df_link_24_limiter "
                  "local_link_from_router_7_to_node_1_15_DOWN df_link_15_limiter"));
  EXPECT_EQ(route(*platform, "n3", "n3"),
            words("df_link_3_limiter local_link_from_router_1_to_node_1_3_UP df_link_30_limiter "
                  "local_link_from_router_1_to_node_1_3_DOWN df_link_3_limiter"));
}

// Parallel links fold into one cable of that many times the bandwidth.
TEST(platform_topology_routing, DragonflyParallelLinksMultiplyTheBandwidth)
{
  auto platform = load_cluster("df", "n", "0-15", "DRAGONFLY", "2,5;2,3;2,2;2");
  EXPECT_EQ(platform->links()[*platform->find_link("local_link_from_router_0_to_node_0_0_UP")].bandwidth, 1e9);
  EXPECT_EQ(platform->links()[*platform->find_link("green_link_in_chassis_0_between_routers_0_and_1_16_UP")].bandwidth,
            2e9);
  EXPECT_EQ(platform->links()[*platform->find_link("black_link_in_group_0_between_chassis_0_and_1_blade_0_20_DOWN")]
                .bandwidth,
            3e9);
  EXPECT_EQ(platform->links()[*platform->find_link("blue_link_between_group_0_and_1_routers_1_and_4_24_UP")].bandwidth,
            5e9);
}

TEST(platform_topology_routing, DragonflyCableNumbersRunAcrossClusters)
{
  auto platform = load_platform(write_platform(
      "<zone id=\"pair\" routing=\"Full\">\n" + cluster_element("df", "n", "0-15", "DRAGONFLY", "2,1;2,1;2,1;2") +
      cluster_element("dg", "m", "0-15", "DRAGONFLY", "2,1;2,1;2,1;2") + "</zone>\n"));
  EXPECT_EQ(link_names(*platform, 50, 50), both_directions(dragonfly_cables(25)));
  EXPECT_EQ(route(*platform, "m0", "m8"),
            words("local_link_from_router_0_to_node_0_25_UP green_link_in_chassis_0_between_routers_0_and_1_41_UP "
                  "blue_link_between_group_0_and_1_routers_1_and_4_49_UP local_link_from_router_4_to_node_0_33_DOWN"));
}

TEST(platform_topology_routing, DragonflyParameterErrors)
{
  const std::string expected = " (expected positive integers separated by commas)";
  EXPECT_EQ(load_error("DRAGONFLY", "2,1;2,1;2"), "dragonfly parameters '2,1;2,1;2' must have 4 parts separated by "
                                                  "';': groups,links;chassis,links;routers,links;nodes");
  // Part by part: the first part's count is checked before the second part is parsed.
  EXPECT_EQ(load_error("DRAGONFLY", "2;2,x;2,1;2"), "dragonfly groups and blue links '2' must be two numbers");
  EXPECT_EQ(load_error("DRAGONFLY", "2,1;2,x;2,1;2"), "bad dragonfly chassis and black links 'x' in '2,x'" + expected);
  EXPECT_EQ(load_error("DRAGONFLY", "2,1;2,1;2,1,3;2"),
            "dragonfly routers and green links '2,1,3' must be two numbers");
  EXPECT_EQ(load_error("DRAGONFLY", "2,1;2,1;2,1;0"), "bad dragonfly hosts per router '0' in '0'" + expected);
  EXPECT_EQ(load_error("DRAGONFLY", "2,1;2,1;2,1;2,2"), "dragonfly hosts per router '2,2' must be one number");
  EXPECT_EQ(load_error("DRAGONFLY", "2,0;2,1;2,1;2"), "bad dragonfly groups and blue links '0' in '2,0'" + expected);
}

// The blue cable between groups a < b lands on router b of group a: with G >= C*R + 2 groups that
// router number is past the last router.
TEST(platform_topology_routing, DragonflyNeedsRoutersForItsBlueCables)
{
  EXPECT_EQ(load_error("DRAGONFLY", "4,1;1,1;2,1;1", "0-7"),
            "dragonfly 'c': 4 groups need at least as many routers per group (SimGrid attaches the link to group b "
            "to router b)");
  auto platform = load_cluster("df", "n", "0-5", "DRAGONFLY", "3,1;1,1;2,1;1"); // G = C*R + 1 still builds
  EXPECT_EQ(platform->hosts().size(), 6u);
}

// With more groups than routers per chassis, SimGrid 3.32 crashes; mpisim follows the page's rules.
TEST(platform_topology_routing, DragonflyWithMoreGroupsThanBlades)
{
  auto platform = generate_platform("dragonfly:2,1;1,1;1,1;1");
  try {
    route(*platform, "node-0", "node-1");
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.message(), "no route from host 'node-0' to host 'node-1': dragonfly 'dragonfly': SimGrid's minimal "
                               "routing has no link for this route (it needs at least as many routers per chassis as "
                               "groups)");
  }
  // Router 1 is both ends of the one blue cable (C*R = 1): it keeps the DOWN half, set last.
  EXPECT_EQ(route(*platform, "node-1", "node-0"),
            words("local_link_from_router_1_to_node_0_1_UP blue_link_between_group_0_and_1_routers_1_and_1_2_DOWN "
                  "local_link_from_router_0_to_node_0_0_DOWN"));

  // 3 groups of 2 chassis of 1 router: the blue cable from group 2 to group 0 lands on router
  // 0*2 + 2, which is (1, 0, 0); the black cable that follows is taken in that router's group.
  auto odd = generate_platform("dragonfly:3,1;2,1;1,1;1");
  EXPECT_EQ(route(*odd, "node-4", "node-1"),
            words("local_link_from_router_4_to_node_0_4_UP blue_link_between_group_1_and_2_routers_4_and_5_11_UP "
                  "black_link_in_group_1_between_chassis_0_and_1_blade_0_7_UP "
                  "local_link_from_router_1_to_node_0_1_DOWN"));
}

} // namespace
