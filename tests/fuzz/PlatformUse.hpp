// What a simulation asks of a loaded platform, asked of every fuzzed one: routes between hosts (first, middle, last,
// both ways, and a host to itself), placements, and its <config> block read by every model's parameters. Whatever
// the loader accepted must answer these without a crash; a route may still be refused with an InputError (a zone
// without a route between two hosts).
#pragma once

#include "FuzzInput.hpp"
#include "models/NetworkModel.hpp"
#include "platform/Platform.hpp"
#include "platform/PlatformSize.hpp"

#include <cmath>

namespace mpisim::fuzz {

// The memory a fuzzed platform may take (platform/PlatformSize.hpp): small enough that one input cannot exhaust the
// machine or time out, large enough for the bundled platforms (graphene-1024: about 2 100 hosts and links).
inline constexpr uint64_t kPlatformMemory = uint64_t{32} << 20;

inline void check_route(const platform::Platform& platform, platform::HostId src, platform::HostId dst)
{
  std::vector<platform::LinkId> links;
  double latency = -1;
  read_input([&] {
    platform.route(src, dst, links, latency);
    if (not std::isfinite(latency) || latency < 0)
      finding("route latency " + std::to_string(latency));
    for (platform::LinkId link : links)
      if (link >= platform.links().size())
        finding("route through link " + std::to_string(link) + " of " + std::to_string(platform.links().size()));
  });
}

inline void use_platform(const platform::Platform& platform)
{
  const auto hosts = static_cast<platform::HostId>(platform.hosts().size());
  if (hosts == 0)
    return;
  const platform::HostId last = hosts - 1;
  const platform::HostId middle = hosts / 2;
  for (auto [src, dst] : {std::pair{platform::HostId{0}, last}, {last, 0}, {0, middle}, {middle, last}, {0, 0}})
    check_route(platform, src, dst);
  for (const platform::HostSpec& host : platform.hosts())
    if (not std::isfinite(host.speed) || host.speed <= 0 || host.cores < 1)
      finding("host '" + printable_text(host.name) + "' with speed " + std::to_string(host.speed) + " and " +
              std::to_string(host.cores) + " cores");
  for (const platform::LinkSpec& link : platform.links())
    if (not std::isfinite(link.bandwidth) || link.bandwidth <= 0 || not std::isfinite(link.latency) || link.latency < 0)
      finding("link '" + printable_text(link.name) + "' with bandwidth " + std::to_string(link.bandwidth) +
              " and latency " + std::to_string(link.latency));
  for (const models::NetworkModelEntry& model : models::NetworkModelRegistry::all())
    read_input([&] {
      models::Parameters parameters(model.parameters);
      for (const auto& [name, value] : platform.config())
        parameters.set(name, value, "platform <config>", /*ignore_unknown=*/true);
    });
}

} // namespace mpisim::fuzz
