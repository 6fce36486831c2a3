// The routing algorithms and cluster topologies mpisim knows, by the names files use.
//
// Two kinds of entries, one per way a file selects routing:
//  - zone routings, selected by <zone routing="...">: an empty zone that then receives hosts,
//    routers, sub-zones and routes;
//  - cluster topologies, selected by <cluster topology="..."> (and by the generate_platform
//    prefix): a builder that creates a whole zone from a ClusterSpec.
// Adding one is one new file in routing/ that defines its entry function, plus its line in
// Registry.cpp (the platform library is static: an explicit list keeps the linker from dropping
// entries that nothing else references).
#pragma once

#include "platform/ClusterSpec.hpp"
#include "platform/Zone.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::platform {

struct ZoneRoutingEntry {
  std::string name;        // as in <zone routing="...">, matched without regard to case
  std::string description; // one line
  std::string citation;    // where the algorithm is described
  std::function<std::unique_ptr<Zone>(const std::string& zone_name)> create;
};

struct TopologyEntry {
  std::string xml_name;  // as in <cluster topology="...">
  std::string spec_name; // prefix of generate_platform specs
  std::string description;
  std::string citation;
  // Host count the topo_parameters describe, or 0 when the radicals give it (FLAT). Throws
  // InputError("", 0, ...) for malformed parameters.
  std::function<size_t(std::string_view topo_parameters)> host_count;
  std::function<void(const ClusterSpec& spec, PlatformBuilder& builder, Zone* parent)> build;
};

const std::vector<ZoneRoutingEntry>& zone_routings();
const std::vector<TopologyEntry>& cluster_topologies();
const ZoneRoutingEntry* find_zone_routing(std::string_view name);
const TopologyEntry* find_topology_by_xml_name(std::string_view name);
const TopologyEntry* find_topology_by_spec_name(std::string_view name);

// "Full, Floyd, ..." for error messages.
std::string zone_routing_names();
std::string topology_xml_names();

} // namespace mpisim::platform
