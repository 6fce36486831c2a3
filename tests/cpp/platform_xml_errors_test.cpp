// Every kind of bad platform file gives an InputError with the file, the line of the offending
// element, and a message that names the wrong value. Each test writes a small file; line 1 is the
// XML declaration, line 2 the <platform> tag.
//
// Suite names repeat the file name so that `ctest -R platform` selects them.
#include "common/Errors.hpp"
#include "platform/Platform.hpp"

#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

using namespace mpisim;
using namespace mpisim::platform;

namespace {

std::string write_platform(const std::string& body, const std::string& version = "4.1")
{
  static int counter = 0;
  const std::string path =
      mpisim::testing_support::unique_temp_path("platform_error_" + std::to_string(counter++) + ".xml");
  std::ofstream out(path);
  out << "<?xml version='1.0'?>\n<platform version=\"" << version << "\">\n" << body << "</platform>\n";
  return path;
}

struct Failure {
  std::string file;
  long line = -1;
  std::string message;
};

Failure load_failure(const std::string& body, const std::string& version = "4.1")
{
  const std::string path = write_platform(body, version);
  try {
    load_platform(path);
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path);
    return {error.file(), error.line(), error.message()};
  }
  ADD_FAILURE() << "no error for:\n" << body;
  return {};
}

// A Full zone with three hosts and two links; `extra` goes before </zone> (line 9 onwards).
std::string zone_with(const std::string& extra)
{
  return "<zone id=\"z\" routing=\"Full\">\n"                                       // 3
         "  <host id=\"a\" speed=\"1Gf\"/>\n"                                       // 4
         "  <host id=\"b\" speed=\"1Gf\"/>\n"                                       // 5
         "  <host id=\"c\" speed=\"1Gf\"/>\n"                                       // 6
         "  <link id=\"l\" bandwidth=\"1Gbps\"/>\n"                                 // 7
         "  <link id=\"sd\" bandwidth=\"1Gbps\" sharing_policy=\"SPLITDUPLEX\"/>\n" // 8
         + extra + "</zone>\n";
}

TEST(platform_xml_errors, MalformedXmlGivesTheLineOfTheError)
{
  Failure f = load_failure("<zone id=\"z\" routing=\"Full\">\n  <host id=\"a\" speed=\"1Gf\">\n</zone>\n");
  EXPECT_EQ(f.line, 5);
  EXPECT_EQ(f.message, "malformed XML: Start-end tags mismatch");
}

TEST(platform_xml_errors, UnreadableFile)
{
  try {
    load_platform("/nonexistent/dir/p.xml");
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "/nonexistent/dir/p.xml");
    EXPECT_EQ(error.message(), "cannot open the platform file: No such file or directory");
  }
}

TEST(platform_xml_errors, VersionsOtherThan4And41AreRefused)
{
  Failure old = load_failure(zone_with(""), "3");
  EXPECT_EQ(old.line, 2);
  EXPECT_EQ(old.message,
            "platform version '3' is too old: mpisim reads versions 4 and 4.1 (SimGrid's simgrid_update_xml upgrades "
            "older files)");
  Failure future = load_failure(zone_with(""), "4.2");
  EXPECT_EQ(future.message, "platform version '4.2' is newer than 4.1, the most recent version mpisim reads");
  EXPECT_NO_THROW(load_platform(write_platform(zone_with(""), "4")));
}

TEST(platform_xml_errors, RootElementMustBePlatform)
{
  const std::string path = mpisim::testing_support::unique_temp_path("platform_root.xml");
  std::ofstream(path) << "<?xml version='1.0'?>\n<plateform version=\"4.1\"/>\n";
  try {
    load_platform(path);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.line(), 2);
    EXPECT_EQ(error.message(), "the root element is <plateform>, expected <platform>");
  }
}

TEST(platform_xml_errors, UnknownAndMisplacedElements)
{
  Failure unknown = load_failure(zone_with("  <hots id=\"x\" speed=\"1Gf\"/>\n"));
  EXPECT_EQ(unknown.line, 9);
  EXPECT_EQ(unknown.message, "unknown element <hots> in <zone>");
  Failure misplaced = load_failure("<host id=\"a\" speed=\"1Gf\"/>\n");
  EXPECT_EQ(misplaced.line, 3);
  EXPECT_EQ(misplaced.message, "element <host> is not allowed in <platform>");
  Failure include = load_failure("<include file=\"other.xml\"/>\n");
  EXPECT_EQ(include.message, "<include> was removed in SimGrid 3.18: paste the included file instead");
  Failure text = load_failure(zone_with("  stray words\n"));
  EXPECT_EQ(text.line, 3);
  EXPECT_EQ(text.message, "unexpected text 'stray words' in <zone>");
}

TEST(platform_xml_errors, UnknownAndMissingAttributes)
{
  Failure unknown = load_failure(zone_with("  <host id=\"d\" speed=\"1Gf\" colour=\"red\"/>\n"));
  EXPECT_EQ(unknown.line, 9);
  EXPECT_EQ(unknown.message, "unknown attribute 'colour' in <host>");
  Failure missing = load_failure(zone_with("  <link id=\"m\" latency=\"1us\"/>\n"));
  EXPECT_EQ(missing.line, 9);
  EXPECT_EQ(missing.message, "<link> needs the attribute 'bandwidth'");
}

TEST(platform_xml_errors, BadUnitsNameTheValue)
{
  Failure kilo = load_failure(zone_with("  <link id=\"m\" bandwidth=\"1KBps\"/>\n"));
  EXPECT_EQ(kilo.line, 9);
  EXPECT_EQ(kilo.message, "link 'm' bandwidth: unknown unit 'KBps' in bandwidth '1KBps' (the decimal kilo prefix is "
                          "a lower-case k: write 'kBps')");
  Failure speed = load_failure(zone_with("  <host id=\"d\" speed=\"1GF\"/>\n"));
  EXPECT_EQ(speed.message, "host 'd' speed: unknown unit 'GF' in speed '1GF' (units are case-sensitive: did you "
                           "mean 'Gf'?)");
  Failure latency = load_failure(zone_with("  <link id=\"m\" bandwidth=\"1Gbps\" latency=\"fast\"/>\n"));
  EXPECT_EQ(latency.message, "link 'm' latency: cannot read a number in time 'fast'");
  Failure cluster = load_failure("<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" "
                                 "bw=\"1Gbps\" lat=\"10\xC2\xB5s\"/>\n");
  EXPECT_EQ(cluster.line, 3);
  EXPECT_EQ(cluster.message, "cluster 'c' lat: unknown unit '\xC2\xB5s' in time '10\xC2\xB5s'");
}

TEST(platform_xml_errors, UnitLessValuesAreAcceptedWithAWarning)
{
  const std::string path = write_platform("<zone id=\"z\" routing=\"Full\">\n"
                                          "  <host id=\"a\" speed=\"1Gf\"/>\n"
                                          "  <link id=\"m\" bandwidth=\"1000000\"/>\n"
                                          "</zone>\n");
  auto platform = load_platform(path);
  ASSERT_EQ(platform->warnings().size(), 1u);
  EXPECT_EQ(platform->warnings()[0], path + ":5: link 'm' bandwidth: unit-less bandwidth '1000000' is deprecated: "
                                            "append 'Bps' (bytes per second) or 'bps' (bits per second)");
  EXPECT_DOUBLE_EQ(platform->links()[*platform->find_link("m")].bandwidth, 1e6);
}

TEST(platform_xml_errors, BadEnumeratedValues)
{
  Failure sharing = load_failure(zone_with("  <link id=\"m\" bandwidth=\"1Gbps\" sharing_policy=\"SHARD\"/>\n"));
  EXPECT_EQ(sharing.line, 9);
  EXPECT_EQ(sharing.message,
            "link 'm': bad sharing_policy 'SHARD' (expected one of SHARED, SPLITDUPLEX, FULLDUPLEX, FATPIPE, WIFI)");
  Failure wifi = load_failure(zone_with("  <link id=\"m\" bandwidth=\"54Mbps\" sharing_policy=\"WIFI\"/>\n"));
  EXPECT_EQ(wifi.message, "link 'm': sharing_policy WIFI is not supported by mpisim");
  Failure symmetrical =
      load_failure(zone_with("  <route src=\"a\" dst=\"b\" symmetrical=\"maybe\"><link_ctn id=\"l\"/></route>\n"));
  EXPECT_EQ(symmetrical.message, "<route>: bad symmetrical 'maybe' (expected one of YES, NO, yes, no)");
  Failure direction =
      load_failure(zone_with("  <route src=\"a\" dst=\"b\"><link_ctn id=\"sd\" direction=\"LEFT\"/></route>\n"));
  EXPECT_EQ(direction.message, "<link_ctn id='sd'>: bad direction 'LEFT' (expected one of UP, DOWN, NONE)");
}

TEST(platform_xml_errors, RoutingsThatDoNotExistOrAreNotSupported)
{
  Failure unknown = load_failure("<zone id=\"z\" routing=\"Fancy\">\n</zone>\n");
  EXPECT_EQ(unknown.line, 3);
  EXPECT_EQ(unknown.message,
            "zone 'z': unknown routing 'Fancy' (known: Full, Floyd, Dijkstra, DijkstraCache, Cluster, None)");
  Failure vivaldi = load_failure("<zone id=\"z\" routing=\"Vivaldi\">\n</zone>\n");
  EXPECT_EQ(vivaldi.message, "zone 'z': routing 'Vivaldi' is not supported by mpisim");
  // Routing names are matched without regard to case, as SimGrid does.
  EXPECT_NO_THROW(load_platform(write_platform("<zone id=\"z\" routing=\"fULL\">\n<host id=\"a\" speed=\"1f\"/>\n"
                                               "</zone>\n")));
}

TEST(platform_xml_errors, DuplicateNames)
{
  Failure host = load_failure(zone_with("  <host id=\"a\" speed=\"2Gf\"/>\n"));
  EXPECT_EQ(host.line, 9);
  EXPECT_EQ(host.message, "duplicate name 'a': a host already has it");
  Failure link = load_failure(zone_with("  <link id=\"l\" bandwidth=\"2Gbps\"/>\n"));
  EXPECT_EQ(link.message, "duplicate link 'l'");
  Failure split = load_failure(zone_with("  <link id=\"sd_UP\" bandwidth=\"2Gbps\"/>\n"));
  EXPECT_EQ(split.message, "duplicate link 'sd_UP'");
  Failure router = load_failure(zone_with("  <router id=\"z\"/>\n"));
  EXPECT_EQ(router.message, "duplicate name 'z': a zone already has it");
}

TEST(platform_xml_errors, UnknownHostsAndLinksInRoutes)
{
  Failure host = load_failure(zone_with("  <route src=\"a\" dst=\"nobody\"><link_ctn id=\"l\"/></route>\n"));
  EXPECT_EQ(host.line, 9);
  EXPECT_EQ(host.message, "<route> dst 'nobody' is not a host, router or zone declared before it");
  Failure link = load_failure(zone_with("  <route src=\"a\" dst=\"b\">\n    <link_ctn id=\"nolink\"/>\n</route>\n"));
  EXPECT_EQ(link.line, 10);
  EXPECT_EQ(link.message, "unknown link 'nolink'");
  Failure split = load_failure(zone_with("  <route src=\"a\" dst=\"b\"><link_ctn id=\"sd\"/></route>\n"));
  EXPECT_EQ(split.message,
            "link 'sd' is split-duplex: give direction=\"UP\" or \"DOWN\", or name 'sd_UP' or 'sd_DOWN'");
  Failure plain =
      load_failure(zone_with("  <route src=\"a\" dst=\"b\"><link_ctn id=\"l\" direction=\"UP\"/></route>\n"));
  EXPECT_EQ(plain.message, "direction=\"UP\" needs a SPLITDUPLEX link, and 'l' is not one");
}

TEST(platform_xml_errors, BadRoutes)
{
  Failure twice = load_failure(zone_with("  <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                                         "  <route src=\"b\" dst=\"a\"><link_ctn id=\"l\"/></route>\n"));
  EXPECT_EQ(twice.line, 10);
  EXPECT_EQ(twice.message, "duplicate route from 'b' to 'a' in zone 'z' (routes are symmetrical by default)");
  Failure empty = load_failure(zone_with("  <route src=\"a\" dst=\"b\"/>\n"));
  EXPECT_EQ(empty.message, "route from 'a' to 'b' is empty");
  Failure zone_route = load_failure(zone_with("  <zoneRoute src=\"a\" dst=\"b\" gw_src=\"a\" gw_dst=\"b\"><link_ctn "
                                              "id=\"l\"/></zoneRoute>\n"));
  EXPECT_EQ(zone_route.line, 9);
  EXPECT_EQ(zone_route.message, "<zoneRoute> cannot go in zone 'z', which already holds hosts or routers: a zone "
                                "holds either hosts and routers or sub-zones");
}

TEST(platform_xml_errors, FloydSelfRouteMustNotBeSymmetrical)
{
  Failure f = load_failure("<zone id=\"z\" routing=\"Floyd\">\n"
                           "  <host id=\"a\" speed=\"1Gf\"/>\n"
                           "  <link id=\"l\" bandwidth=\"1Gbps\"/>\n"
                           "  <route src=\"a\" dst=\"a\"><link_ctn id=\"l\"/></route>\n"
                           "</zone>\n");
  EXPECT_EQ(f.line, 6);
  EXPECT_EQ(f.message, "duplicate route from 'a' to 'a' in zone 'z' (routes are symmetrical by default: a route and "
                       "its reverse are declared once)");
}

TEST(platform_xml_errors, GatewaysMustBeInsideTheirZones)
{
  Failure f =
      load_failure("<zone id=\"top\" routing=\"Full\">\n"                                       // 3
                   "  <zone id=\"z1\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n" // 4
                   "  <zone id=\"z2\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/></zone>\n" // 5
                   "  <link id=\"l\" bandwidth=\"1Gbps\"/>\n"                                   // 6
                   "  <zoneRoute src=\"z1\" dst=\"z2\" gw_src=\"b\" gw_dst=\"a\"><link_ctn id=\"l\"/></zoneRoute>\n"
                   "</zone>\n");
  EXPECT_EQ(f.line, 7);
  EXPECT_EQ(f.message, "zone route from 'z1' (gateway 'b') to 'z2' (gateway 'a'): gateway 'b' is not inside zone 'z1'");
  Failure g =
      load_failure("<zone id=\"top\" routing=\"Full\">\n"
                   "  <zone id=\"z1\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n"
                   "  <zone id=\"z2\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/></zone>\n"
                   "  <link id=\"l\" bandwidth=\"1Gbps\"/>\n"
                   "  <zoneRoute src=\"z1\" dst=\"b\" gw_src=\"a\" gw_dst=\"b\"><link_ctn id=\"l\"/></zoneRoute>\n"
                   "</zone>\n");
  EXPECT_EQ(g.line, 7);
  EXPECT_EQ(g.message, "zone route from 'z1' (gateway 'a') to 'b' (gateway 'b'): 'b' is not declared directly in zone "
                       "'top'");
}

TEST(platform_xml_errors, ZoneHoldsHostsOrSubZonesNotBoth)
{
  Failure f = load_failure("<zone id=\"top\" routing=\"Full\">\n"
                           "  <host id=\"a\" speed=\"1Gf\"/>\n"
                           "  <zone id=\"sub\" routing=\"Full\"/>\n"
                           "</zone>\n");
  EXPECT_EQ(f.line, 5);
  EXPECT_EQ(f.message, "<zone> cannot go in zone 'top', which already holds hosts or routers: a zone holds either "
                       "hosts and routers or sub-zones");
  Failure two = load_failure("<zone id=\"a\" routing=\"Full\"/>\n<zone id=\"b\" routing=\"Full\"/>\n");
  EXPECT_EQ(two.line, 4);
  EXPECT_EQ(two.message, "a platform has a single top-level zone or cluster: 'b' comes after 'a' (wrap both in a "
                         "<zone>)");
}

TEST(platform_xml_errors, ConfigComesFirst)
{
  Failure f = load_failure(zone_with("") + "<config><prop id=\"network/model\" value=\"SMPI\"/></config>\n");
  EXPECT_EQ(f.line, 10);
  EXPECT_EQ(f.message, "<config> must come before any zone, cluster or other platform element");
}

TEST(platform_xml_errors, HostAttributes)
{
  Failure pstate = load_failure(zone_with("  <host id=\"d\" speed=\"1Gf,2Gf\" pstate=\"2\"/>\n"));
  EXPECT_EQ(pstate.line, 9);
  EXPECT_EQ(pstate.message, "host 'd': pstate '2' is not one of its 2 power states (numbered from 0)");
  Failure core = load_failure(zone_with("  <host id=\"d\" speed=\"1Gf\" core=\"four\"/>\n"));
  EXPECT_EQ(core.message, "host 'd' core: 'four' is not a positive integer");
}

TEST(platform_xml_errors, ClusterZoneElements)
{
  Failure cabinet = load_failure(zone_with("  <cabinet id=\"k\" prefix=\"n\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" "
                                           "bw=\"1Gbps\" lat=\"1us\"/>\n"));
  EXPECT_EQ(cabinet.line, 9);
  EXPECT_EQ(cabinet.message, "<cabinet> belongs in a zone with routing=\"Cluster\", and zone 'z' has routing=\"Full\"");
  Failure host_link = load_failure("<zone id=\"z\" routing=\"Cluster\">\n" // 3
                                   "  <host id=\"a\" speed=\"1Gf\"/>\n"    // 4
                                   "  <link id=\"up\" bandwidth=\"1Gbps\"/>\n"
                                   "  <host_link id=\"a\" up=\"up\" down=\"nowhere\"/>\n" // 6
                                   "</zone>\n");
  EXPECT_EQ(host_link.line, 6);
  EXPECT_EQ(host_link.message, "<host_link> for 'a': unknown down link 'nowhere'");
  Failure route = load_failure("<zone id=\"z\" routing=\"Cluster\">\n"
                               "  <host id=\"a\" speed=\"1Gf\"/>\n"
                               "  <host id=\"b\" speed=\"1Gf\"/>\n"
                               "  <link id=\"l\" bandwidth=\"1Gbps\"/>\n"
                               "  <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                               "</zone>\n");
  EXPECT_EQ(route.line, 7);
  EXPECT_EQ(route.message, "route from 'a' to 'b': zone 'z' (routing Cluster) builds its routes from <host_link>, "
                           "<cabinet> and <backbone>; it only accepts routes from a host to itself (loopback)");
}

TEST(platform_xml_errors, ClusterAttributes)
{
  const std::string start = "<cluster id=\"c\" prefix=\"n\" suffix=\"\" speed=\"1Gf\" bw=\"1Gbps\" lat=\"1us\" ";
  Failure radical = load_failure(start + "radical=\"1-x\"/>\n");
  EXPECT_EQ(radical.line, 3);
  EXPECT_EQ(radical.message, "malformed radical '1-x' in '1-x' (expected N or N-M, separated by commas)");
  Failure topology = load_failure(start + "radical=\"0-3\" topology=\"MESH\"/>\n");
  EXPECT_EQ(topology.message, "unknown topology 'MESH' for cluster 'c' (known: FLAT, TORUS, FAT_TREE, DRAGONFLY)");
  Failure torus = load_failure(start + "radical=\"0-3\" topology=\"TORUS\" topo_parameters=\"2,x\"/>\n");
  EXPECT_EQ(torus.message, "bad torus dimension 'x' in '2,x' (expected positive integers separated by commas)");
  Failure hosts = load_failure(start + "radical=\"0-10\" topology=\"TORUS\" topo_parameters=\"3,2,2\"/>\n");
  EXPECT_EQ(hosts.message, "cluster 'c': topology TORUS '3,2,2' has 12 hosts but the radicals name only 11");
  Failure fat_tree = load_failure(start + "radical=\"0-15\" topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1;1,2\"/>\n");
  EXPECT_EQ(fat_tree.message, "fat-tree parameters '2;4,4;1;1,2': 2 levels but the parent counts '1' have 1");
  Failure dragonfly = load_failure(start + "radical=\"0-15\" topology=\"DRAGONFLY\" topo_parameters=\"2,1;2,1;2\"/>\n");
  EXPECT_EQ(dragonfly.message, "dragonfly parameters '2,1;2,1;2' must have 4 parts separated by ';': "
                               "groups,links;chassis,links;routers,links;nodes");
  Failure sharing = load_failure(start + "radical=\"0-3\" bb_sharing_policy=\"SPLITDUPLEX\" bb_bw=\"1Gbps\"/>\n");
  EXPECT_EQ(sharing.message, "cluster 'c': bad bb_sharing_policy 'SPLITDUPLEX' (expected one of SHARED, FATPIPE)");
}

// A missing route is allowed at load time (SimGrid accepts it and fails only when it is used):
// loading warns, and asking for it throws an InputError located at the zone that lacks it.
TEST(platform_xml_errors, RouteBetweenHostsWithNoPath)
{
  const std::string path = write_platform(zone_with("  <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"));
  auto platform = load_platform(path);
  ASSERT_EQ(platform->warnings().size(), 1u);
  EXPECT_EQ(
      platform->warnings()[0],
      path + ":3: zone 'z' (routing Full) has no route from 'a' to 'c' (and maybe others): asking for one will fail");
  std::vector<LinkId> links;
  double latency = 0;
  EXPECT_NO_THROW(platform->route(*platform->find_host("a"), *platform->find_host("b"), links, latency));
  try {
    platform->route(*platform->find_host("a"), *platform->find_host("c"), links, latency);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path);
    EXPECT_EQ(error.line(), 3);
    EXPECT_EQ(error.message(), "no route from host 'a' to host 'c': zone 'z' (Full) declares no route from 'a' to 'c'");
    EXPECT_TRUE(links.empty());
  }
}

TEST(platform_xml_errors, GraphZonesWarnAboutHostsTheyCannotReach)
{
  for (const std::string routing : {"Floyd", "Dijkstra"}) {
    const std::string path =
        write_platform("<zone id=\"g\" routing=\"" + routing +
                       "\">\n" // 3
                       "  <host id=\"a\" speed=\"1Gf\"/>\n"
                       "  <host id=\"b\" speed=\"1Gf\"/>\n"
                       "  <host id=\"c\" speed=\"1Gf\"/>\n"
                       "  <link id=\"l\" bandwidth=\"1Gbps\"/>\n"
                       "  <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                       "  <route src=\"b\" dst=\"c\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>\n"
                       "</zone>\n");
    auto platform = load_platform(path);
    ASSERT_EQ(platform->warnings().size(), 1u) << routing;
    EXPECT_EQ(platform->warnings()[0], path + ":3: zone 'g' (routing " + routing +
                                           ") has no route from 'c' to 'a' (and maybe others): asking for one will "
                                           "fail");
    std::vector<LinkId> links;
    double latency = 0;
    platform->route(0, 2, links, latency); // a -> b -> c exists
    EXPECT_EQ(links.size(), 2u);
    EXPECT_THROW(platform->route(2, 0, links, latency), InputError);
  }
}

TEST(platform_xml_errors, NoneRoutingHasNoRoutes)
{
  auto platform = load_platform(write_platform("<zone id=\"z\" routing=\"None\">\n"
                                               "  <host id=\"a\" speed=\"1Gf\"/>\n"
                                               "  <host id=\"b\" speed=\"1Gf\"/>\n"
                                               "</zone>\n"));
  std::vector<LinkId> links;
  double latency = 0;
  try {
    platform->route(0, 1, links, latency);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.line(), 3);
    EXPECT_EQ(error.message(), "no route from host 'a' to host 'b': zone 'z' has routing None: it defines no route "
                               "(from 'a' to 'b'); use it only with a network model that ignores links");
  }
}

TEST(platform_xml_errors, EmptyPlatform)
{
  Failure f = load_failure("");
  EXPECT_EQ(f.line, 0);
  EXPECT_EQ(f.message, "the platform declares no zone and no cluster");
}

} // namespace
