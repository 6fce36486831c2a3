// route_dump: prints what SimGrid itself makes of a platform file, so that mpisim's platform
// layer can be checked against it. This is NOT part of mpisim: it is a test-data generator
// built against the installed SimGrid (3.32), through its public s4u API only.
//
// Build:   g++ -std=c++17 -O1 -o /tmp/route_dump tests/simgrid/route_dump.cpp -lsimgrid
// Run:     /tmp/route_dump PLATFORM.xml [--max-pairs N] > expected.routes
//
// Output (one record per line, fields separated by one tab since names may contain spaces;
// numbers printed with %.17g so that they round-trip exactly):
//   # comment lines (the command line, counts)
//   host NAME SPEED CORES                     every host, sorted by name
//   link NAME BANDWIDTH LATENCY POLICY        every link, sorted by name (POLICY: SHARED|FATPIPE|...)
//   route SRC DST LATENCY N LINK1 ... LINKN    one route per checked pair
//
// Which pairs: with H hosts (sorted by name), all H*H ordered pairs when H*H <= max-pairs
// (default 20000); otherwise every pair (h0, x), every pair (x, h0), every self pair (x, x), and
// then pseudo-random pairs from a fixed linear congruential generator until max-pairs is reached.
// The choice is deterministic so the same command gives the same file.
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

const char* policy_name(simgrid::s4u::Link::SharingPolicy policy)
{
  switch (policy) {
  case simgrid::s4u::Link::SharingPolicy::FATPIPE: return "FATPIPE";
  case simgrid::s4u::Link::SharingPolicy::SHARED: return "SHARED";
  case simgrid::s4u::Link::SharingPolicy::SPLITDUPLEX: return "SPLITDUPLEX";
  case simgrid::s4u::Link::SharingPolicy::WIFI: return "WIFI";
  default: return "OTHER";
  }
}

std::vector<std::pair<size_t, size_t>> choose_pairs(size_t host_count, size_t max_pairs)
{
  std::vector<std::pair<size_t, size_t>> pairs;
  if (host_count * host_count <= max_pairs) {
    for (size_t i = 0; i < host_count; i++)
      for (size_t j = 0; j < host_count; j++)
        pairs.emplace_back(i, j);
    return pairs;
  }
  std::set<std::pair<size_t, size_t>> seen;
  auto add = [&](size_t i, size_t j) {
    if (seen.insert({i, j}).second)
      pairs.emplace_back(i, j);
  };
  for (size_t x = 0; x < host_count; x++) {
    add(0, x);
    add(x, 0);
    add(x, x);
  }
  uint64_t state = 12345;
  auto next = [&state]() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  while (pairs.size() < max_pairs) {
    size_t i = next() % host_count;
    size_t j = next() % host_count;
    add(i, j);
  }
  return pairs;
}

} // namespace

int main(int argc, char** argv)
{
  // Keep SimGrid's own arguments away from ours: only the platform and our options are accepted.
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PLATFORM.xml [--max-pairs N]\n", argv[0]);
    return 1;
  }
  std::string platform = argv[1];
  size_t max_pairs = 20000;
  for (int i = 2; i < argc; i++) {
    std::string arg = argv[i];
    if (arg == "--max-pairs" && i + 1 < argc)
      max_pairs = std::strtoul(argv[++i], nullptr, 10);
    else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 1;
    }
  }
  int sg_argc = 1;
  char* sg_argv[] = {argv[0], nullptr};
  simgrid::s4u::Engine engine(&sg_argc, sg_argv);
  engine.load_platform(platform);
  // Zones compute their loopbacks and shortest paths when sealed, which a simulation does when it starts.
  engine.seal_platform();

  std::vector<simgrid::s4u::Host*> hosts = engine.get_all_hosts();
  std::sort(hosts.begin(), hosts.end(), [](auto* a, auto* b) { return a->get_name() < b->get_name(); });
  std::vector<simgrid::s4u::Link*> links = engine.get_all_links();
  std::sort(links.begin(), links.end(), [](auto* a, auto* b) { return a->get_name() < b->get_name(); });

  std::printf("# route_dump %s --max-pairs %zu\n", platform.c_str(), max_pairs);
  std::printf("# hosts %zu links %zu\n", hosts.size(), links.size());
  for (const auto* host : hosts)
    std::printf("host\t%s\t%.17g\t%d\n", host->get_cname(), host->get_speed(), host->get_core_count());
  for (const auto* link : links)
    std::printf("link\t%s\t%.17g\t%.17g\t%s\n", link->get_cname(), link->get_bandwidth(), link->get_latency(),
                policy_name(link->get_sharing_policy()));

  for (auto [i, j] : choose_pairs(hosts.size(), max_pairs)) {
    std::vector<simgrid::s4u::Link*> route;
    double latency = 0;
    hosts[i]->route_to(hosts[j], route, &latency);
    std::printf("route\t%s\t%s\t%.17g\t%zu", hosts[i]->get_cname(), hosts[j]->get_cname(), latency, route.size());
    for (const auto* link : route)
      std::printf("\t%s", link->get_cname());
    std::printf("\n");
  }
  return 0;
}
