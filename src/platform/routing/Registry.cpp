#include "platform/routing/Registry.hpp"

#include <cctype>

namespace mpisim::platform {

// Defined in their own files, one per routing or topology.
ZoneRoutingEntry full_routing_entry();
ZoneRoutingEntry floyd_routing_entry();
ZoneRoutingEntry dijkstra_routing_entry();
ZoneRoutingEntry dijkstra_cache_routing_entry();
ZoneRoutingEntry star_routing_entry();
ZoneRoutingEntry no_routing_entry();
TopologyEntry flat_cluster_topology_entry();
TopologyEntry torus_topology_entry();
TopologyEntry fat_tree_topology_entry();
TopologyEntry dragonfly_topology_entry();

const std::vector<ZoneRoutingEntry>& zone_routings()
{
  static const std::vector<ZoneRoutingEntry> entries = {full_routing_entry(),     floyd_routing_entry(),
                                                        dijkstra_routing_entry(), dijkstra_cache_routing_entry(),
                                                        star_routing_entry(),     no_routing_entry()};
  return entries;
}

const std::vector<TopologyEntry>& cluster_topologies()
{
  static const std::vector<TopologyEntry> entries = {flat_cluster_topology_entry(), torus_topology_entry(),
                                                     fat_tree_topology_entry(), dragonfly_topology_entry()};
  return entries;
}

namespace {

bool same_ignoring_case(std::string_view a, std::string_view b)
{
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

} // namespace

const ZoneRoutingEntry* find_zone_routing(std::string_view name)
{
  for (const auto& entry : zone_routings()) {
    if (same_ignoring_case(entry.name, name))
      return &entry;
  }
  return nullptr;
}

const TopologyEntry* find_topology_by_xml_name(std::string_view name)
{
  for (const auto& entry : cluster_topologies()) {
    if (entry.xml_name == name)
      return &entry;
  }
  return nullptr;
}

const TopologyEntry* find_topology_by_spec_name(std::string_view name)
{
  for (const auto& entry : cluster_topologies()) {
    if (entry.spec_name == name)
      return &entry;
  }
  return nullptr;
}

std::string zone_routing_names()
{
  std::string names;
  for (const auto& entry : zone_routings())
    names += (names.empty() ? "" : ", ") + entry.name;
  return names;
}

std::string topology_xml_names()
{
  std::string names;
  for (const auto& entry : cluster_topologies())
    names += (names.empty() ? "" : ", ") + entry.xml_name;
  return names;
}

} // namespace mpisim::platform
