#include "platform/Platform.hpp"

#include "common/Errors.hpp"
#include "platform/ZoneTree.hpp"

#include <vector>

namespace mpisim::platform {

Platform::Platform() = default;
Platform::~Platform() = default;

std::optional<HostId> Platform::find_host(std::string_view name) const
{
  return host_names_.find(name, [this](uint32_t id) { return host_name(id); });
}

std::optional<LinkId> Platform::find_link(std::string_view name) const
{
  return link_names_.find(name, [this](uint32_t id) { return link_name(id); });
}

void Platform::route(HostId src, HostId dst, std::vector<LinkId>& links, double& latency) const
{
  links.clear();
  if (src >= hosts_.size() || dst >= hosts_.size())
    throw InputError("", 0,
                     "no host with id " + std::to_string(src >= hosts_.size() ? src : dst) + " (the platform has " +
                         std::to_string(hosts_.size()) + " hosts)");
  try {
    zones_->append_route(zones_->host_point(src), zones_->host_point(dst), links);
  } catch (const InputError& error) {
    links.clear();
    throw InputError(source_, error.line(),
                     "no route from host '" + hosts_[src].name + "' to host '" + hosts_[dst].name +
                         "': " + error.message());
  }
  // Summed in route order. SimGrid sums in the order it builds the route, which is the same except
  // in Dijkstra zones (built backwards): the two may differ in the last bit there.
  latency = 0;
  for (LinkId link : links)
    latency += links_[link].latency;
}

std::vector<const Zone*> Platform::zones_of(HostId host) const
{
  std::vector<const Zone*> zones;
  for (const Zone* zone = zones_->point(zones_->host_point(host)).englobing; zone != nullptr; zone = zone->parent())
    zones.push_back(zone);
  return {zones.rbegin(), zones.rend()};
}

const Zone* Platform::zone_of(HostId host) const
{
  return zones_->point(zones_->host_point(host)).englobing;
}

} // namespace mpisim::platform
