#include "platform/XmlSchema.hpp"

#include <set>

namespace mpisim::platform {

const std::map<std::string_view, ElementRule>& element_rules()
{
  static const std::map<std::string_view, ElementRule> rules = {
      {"platform", {{}, {"version"}}},
      {"config", {{}, {"id"}}},
      {"prop", {{"id", "value"}, {}}},
      {"zone", {{"id", "routing"}, {}}},
      {"AS", {{"id", "routing"}, {}}},
      {"host", {{"id", "speed"}, {"core", "speed_file", "availability_file", "state_file", "coordinates", "pstate"}}},
      {"link", {{"id", "bandwidth"}, {"bandwidth_file", "latency", "latency_file", "state_file", "sharing_policy"}}},
      {"router", {{"id"}, {"coordinates"}}},
      {"route", {{"src", "dst"}, {"symmetrical"}}},
      {"zoneRoute", {{"src", "dst", "gw_src", "gw_dst"}, {"symmetrical"}}},
      {"ASroute", {{"src", "dst", "gw_src", "gw_dst"}, {"symmetrical"}}},
      {"bypassRoute", {{"src", "dst"}, {}}},
      {"bypassZoneRoute", {{"src", "dst", "gw_src", "gw_dst"}, {}}},
      {"bypassASroute", {{"src", "dst", "gw_src", "gw_dst"}, {}}},
      {"link_ctn", {{"id"}, {"direction"}}},
      {"cluster",
       {{"id", "prefix", "suffix", "radical", "speed", "bw", "lat"},
        {"core", "sharing_policy", "topology", "topo_parameters", "bb_bw", "bb_lat", "bb_sharing_policy", "router_id",
         "limiter_link", "loopback_bw", "loopback_lat"}}},
      {"cabinet", {{"id", "prefix", "suffix", "radical", "speed", "bw", "lat"}, {}}},
      {"backbone", {{"id", "bandwidth", "latency"}, {}}},
      {"host_link", {{"id", "up", "down"}, {}}},
      {"disk", {{"read_bw", "write_bw"}, {"id"}}},
      {"trace", {{"id", "periodicity"}, {"file"}}},
      {"trace_connect", {{"trace", "element"}, {"kind"}}},
      {"actor", {{"host", "function"}, {"start_time", "kill_time", "on_failure"}}},
      {"process", {{"host", "function"}, {"start_time", "kill_time", "on_failure"}}},
      {"argument", {{"value"}, {}}},
      {"random", {{"id", "min", "max", "mean", "std_deviation"}, {"seed", "radical", "generator"}}},
      {"model_prop", {{"id", "value"}, {}}},
      {"peer",
       {{"id", "speed", "bw_in", "bw_out"}, {"lat", "coordinates", "speed_file", "availability_file", "state_file"}}},
      {"include", {{"file"}, {}}},
      {"storage", {{}, {}}},
      {"storage_type", {{}, {}}},
      {"mount", {{}, {}}},
  };
  return rules;
}

// Elements SimGrid 3.32 refuses outright, with its reason.
const std::map<std::string_view, std::string_view>& removed_elements()
{
  static const std::map<std::string_view, std::string_view> removed = {
      {"include", "<include> was removed in SimGrid 3.18: paste the included file instead"},
      {"storage", "<storage> was removed in SimGrid 3.27"},
      {"storage_type", "<storage_type> was removed in SimGrid 3.27"},
      {"mount", "<mount> was removed in SimGrid 3.27"},
      {"peer", "<peer> belongs to Vivaldi zones, which mpisim does not support"},
  };
  return removed;
}

ZoneContent content_kind(std::string_view element)
{
  static const std::set<std::string_view> leaf = {"host", "router", "cabinet", "host_link", "route", "bypassRoute"};
  static const std::set<std::string_view> inner = {
      "zone", "AS", "cluster", "zoneRoute", "ASroute", "bypassZoneRoute", "bypassASroute"};
  if (leaf.count(element))
    return ZoneContent::Leaf;
  if (inner.count(element))
    return ZoneContent::Inner;
  return ZoneContent::Undecided;
}

} // namespace mpisim::platform
