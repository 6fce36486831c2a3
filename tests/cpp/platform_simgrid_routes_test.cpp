// Platforms as SimGrid 3.32 sees them: every *.routes file in tests/cpp/data/platforms/ was written
// by tests/simgrid/route_dump.cpp (SimGrid's own routing, through its s4u API) for the platform
// named on its first line. This test loads the same platform with mpisim and checks the hosts,
// the links and every listed route, link for link. The expected values come from SimGrid, not
// from mpisim: regenerate them with the command in tests/cpp/data/platforms/README.md.
//
// Suite names repeat the file name so that `ctest -R platform` selects them.
#include "common/Errors.hpp"
#include "platform/Platform.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace mpisim::platform;

namespace {

struct ExpectedHost {
  double speed;
  int cores;
};
struct ExpectedLink {
  double bandwidth;
  double latency;
  std::string policy;
};
struct ExpectedRoute {
  std::string src, dst;
  double latency;
  std::vector<std::string> links;
};
struct Expected {
  std::string platform; // relative to the source tree
  std::map<std::string, ExpectedHost> hosts;
  std::map<std::string, ExpectedLink> links;
  std::vector<ExpectedRoute> routes;
};

// Records are tab-separated (names may contain spaces); comment lines start with '#'.
std::vector<std::string> split_tabs(const std::string& line)
{
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos)
      return fields;
    start = tab + 1;
  }
}

Expected read_expected(const std::filesystem::path& file)
{
  std::ifstream in(file);
  Expected expected;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# route_dump ", 0) == 0) {
      std::istringstream words(line.substr(13));
      words >> expected.platform;
      continue;
    }
    std::vector<std::string> fields = split_tabs(line);
    if (fields[0] == "host" && fields.size() == 4) {
      expected.hosts[fields[1]] = {std::stod(fields[2]), std::stoi(fields[3])};
    } else if (fields[0] == "link" && fields.size() == 5) {
      expected.links[fields[1]] = {std::stod(fields[2]), std::stod(fields[3]), fields[4]};
    } else if (fields[0] == "route" && fields.size() >= 5) {
      ExpectedRoute route{fields[1], fields[2], std::stod(fields[3]), {}};
      route.links.assign(fields.begin() + 5, fields.end());
      EXPECT_EQ(route.links.size(), std::stoul(fields[4])) << line;
      expected.routes.push_back(std::move(route));
    }
  }
  return expected;
}

std::vector<std::string> routes_files()
{
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MPISIM_TEST_DATA) + "/platforms")) {
    if (entry.path().extension() == ".routes")
      files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool close(double a, double b)
{
  return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
}

std::string joined(const std::vector<std::string>& names)
{
  std::string text;
  for (const auto& name : names)
    text += (text.empty() ? "" : " ") + name;
  return text;
}

class platform_simgrid_routes : public ::testing::TestWithParam<std::string> {};

TEST_P(platform_simgrid_routes, HostsLinksAndRoutes)
{
  const Expected expected = read_expected(std::string(MPISIM_TEST_DATA) + "/platforms/" + GetParam());
  ASSERT_FALSE(expected.platform.empty()) << "no '# route_dump PLATFORM' line";
  std::unique_ptr<Platform> platform;
  ASSERT_NO_THROW(platform = load_platform(std::string(MPISIM_SOURCE_DIR) + "/" + expected.platform));

  ASSERT_EQ(platform->hosts().size(), expected.hosts.size());
  for (const auto& host : platform->hosts()) {
    auto found = expected.hosts.find(host.name);
    ASSERT_NE(found, expected.hosts.end()) << "SimGrid has no host " << host.name;
    EXPECT_DOUBLE_EQ(host.speed, found->second.speed) << host.name;
    EXPECT_EQ(host.cores, found->second.cores) << host.name;
  }

  // SimGrid always creates the global loopback; mpisim only when a route uses it.
  size_t compared_links = 0;
  for (const auto& [name, link] : expected.links) {
    auto id = platform->find_link(name);
    if (!id && name == "__loopback__")
      continue;
    ASSERT_TRUE(id) << "mpisim has no link " << name;
    const LinkSpec& ours = platform->links()[*id];
    EXPECT_DOUBLE_EQ(ours.bandwidth, link.bandwidth) << name;
    EXPECT_DOUBLE_EQ(ours.latency, link.latency) << name;
    EXPECT_EQ(ours.sharing == LinkSharing::Fatpipe ? "FATPIPE" : "SHARED", link.policy) << name;
    compared_links++;
  }
  EXPECT_EQ(compared_links, platform->links().size()) << "mpisim has links that SimGrid does not";

  std::vector<LinkId> links;
  double latency = 0;
  size_t failures = 0;
  for (const auto& route : expected.routes) {
    auto src = platform->find_host(route.src);
    auto dst = platform->find_host(route.dst);
    ASSERT_TRUE(src && dst) << route.src << " -> " << route.dst;
    platform->route(*src, *dst, links, latency);
    std::vector<std::string> names;
    for (LinkId link : links)
      names.push_back(platform->links()[link].name);
    if (names != route.links || !close(latency, route.latency)) {
      ADD_FAILURE() << route.src << " -> " << route.dst << "\n  SimGrid: " << route.latency << " "
                    << joined(route.links) << "\n  mpisim:  " << latency << " " << joined(names);
      if (++failures == 10)
        FAIL() << "stopping after 10 differing routes";
    }
  }
  RecordProperty("routes_checked", static_cast<int>(expected.routes.size()));
  std::cout << "[ routes   ] " << GetParam() << ": " << expected.routes.size() << " routes checked against SimGrid\n";
}

INSTANTIATE_TEST_SUITE_P(SimGrid, platform_simgrid_routes, ::testing::ValuesIn(routes_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.find('.'));
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return name;
                         });

} // namespace
