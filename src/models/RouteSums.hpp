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
class RouteSumsTable {
public:
  explicit RouteSumsTable(const platform::Platform& platform);
  RouteSums between(platform::HostId src, platform::HostId dst);

private:
  static constexpr uint32_t kNoZone = std::numeric_limits<uint32_t>::max();
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
