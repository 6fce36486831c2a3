// The latency sum and the smallest bandwidth of the route between two hosts, for the models that need only those
// (loggps; xsim's networks without xsim/lat or xsim/bw).
#pragma once

#include "models/PairTable.hpp"
#include "platform/Platform.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace mpisim::models {

struct RouteSums {
  double latency = 0; // seconds: the links' latencies added in route order, as Platform::route adds them
  double bandwidth = std::numeric_limits<double>::infinity(); // bytes per second: the smallest (none: infinite)
};

// The sums of a route (the platform's link ids, in route order).
RouteSums sums_of(const platform::Platform& platform, const std::vector<platform::LinkId>& route);

// The sums between any two hosts, as sums_of(Platform::route(src, dst)) gives them. Asking the route for each message
// costs more than the rest of a delay model: two hosts declared in a zone whose routes between hosts are all alike (a
// FLAT cluster, Zone::uniform_host_route) take the zone's sums, found once; other pairs are routed once, then kept.
// A model that keeps answers of its own per pair (xsim) asks the zones and routes without the table keeping them.
class RouteSumsTable {
public:
  static constexpr uint32_t kNoZone = std::numeric_limits<uint32_t>::max();

  explicit RouteSumsTable(const platform::Platform& platform);
  RouteSums between(platform::HostId src, platform::HostId dst)
  {
    if (const RouteSums* same = uniform_between(src, dst))
      return *same;
    return pairs_.find(src, dst, [&] { return route(src, dst); });
  }

  // The zone declaring `host` (numbered from 0 in the order of the hosts), kNoZone if none.
  uint32_t zone_of(platform::HostId host) const { return host_zone_[host]; }
  // The sums of every route between two distinct hosts of `zone` when they are all alike, else null.
  const RouteSums* uniform_sums(uint32_t zone) const { return zones_[zone].uniform ? &zones_[zone].sums : nullptr; }
  // Two distinct hosts of a zone whose routes are all alike: its sums, else null.
  const RouteSums* uniform_between(platform::HostId src, platform::HostId dst) const
  {
    // (Hosts the platform does not have go to Platform::route, which says so.)
    if (src >= host_zone_.size() || dst >= host_zone_.size() || src == dst)
      return nullptr;
    const uint32_t zone = host_zone_[src];
    return zone == host_zone_[dst] && zone != kNoZone ? uniform_sums(zone) : nullptr;
  }
  // The sums, from the route asked now and not kept.
  RouteSums route(platform::HostId src, platform::HostId dst);

private:
  struct UniformZone {
    bool uniform = false;
    RouteSums sums;
  };
  const platform::Platform& platform_;
  std::vector<uint32_t> host_zone_; // the zone declaring each host (index into zones_), kNoZone if none
  std::vector<UniformZone> zones_;
  PairTable<RouteSums> pairs_;
  std::vector<platform::LinkId> route_;
};

} // namespace mpisim::models
