#include "models/RouteSums.hpp"

#include "platform/Zone.hpp"

#include <algorithm>
#include <unordered_map>

namespace mpisim::models {

RouteSums sums_of(const platform::Platform& platform, const std::vector<platform::LinkId>& route)
{
  RouteSums sums;
  for (platform::LinkId link : route) {
    sums.latency += platform.links()[link].latency;
    sums.bandwidth = std::min(sums.bandwidth, platform.links()[link].bandwidth);
  }
  return sums;
}

RouteSumsTable::RouteSumsTable(const platform::Platform& platform)
    : platform_(platform), host_zone_(platform.hosts().size(), kNoZone), pairs_(platform.hosts().size())
{
  std::unordered_map<const platform::Zone*, uint32_t> zone_index; // into zones_
  for (platform::HostId host = 0; host < host_zone_.size(); ++host) {
    const std::vector<const platform::Zone*> path = platform.zones_of(host);
    if (path.empty())
      continue;
    const platform::Zone* zone = path.back(); // the zone declaring the host
    auto [found, added] = zone_index.try_emplace(zone, static_cast<uint32_t>(zones_.size()));
    if (added) {
      UniformZone& uniform = zones_.emplace_back();
      uniform.uniform = zone->uniform_host_route(platform.links(), route_);
      if (uniform.uniform)
        uniform.sums = sums_of(platform, route_);
    }
    host_zone_[host] = found->second;
  }
}

RouteSums RouteSumsTable::route(platform::HostId src, platform::HostId dst)
{
  double latency = 0;
  platform_.route(src, dst, route_, latency);
  RouteSums sums = sums_of(platform_, route_);
  sums.latency = latency;
  return sums;
}

} // namespace mpisim::models
