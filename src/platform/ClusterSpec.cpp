#include "platform/ClusterSpec.hpp"

#include "common/Errors.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/PlatformSize.hpp"
#include "platform/routing/Registry.hpp"

#include <charconv>

namespace mpisim::platform {

std::string ClusterSpec::host_name(size_t position) const
{
  const size_t first_named = radicals.size() - last_host_names.size();
  if (position >= first_named)
    return last_host_names[position - first_named];
  return prefix + std::to_string(radicals[position]) + suffix;
}

namespace {

int parse_radical_number(std::string_view number, std::string_view group, std::string_view text)
{
  int value = 0;
  auto [end, err] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (number.empty() || err != std::errc() || end != number.data() + number.size())
    throw InputError("", 0,
                     "malformed radical '" + std::string(group) + "' in '" + std::string(text) +
                         "' (expected N or N-M, separated by commas)");
  return value;
}

} // namespace

std::vector<std::string_view> split(std::string_view text, char separator)
{
  std::vector<std::string_view> pieces;
  for (size_t start = 0;;) {
    const size_t end = text.find(separator, start);
    pieces.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos)
      return pieces;
    start = end + 1;
  }
}

std::vector<int> parse_radicals(std::string_view text)
{
  std::vector<std::pair<int, int>> ranges;
  uint64_t hosts = 0;
  for (std::string_view group : split(text, ',')) {
    const size_t dash = group.find('-');
    const int first = parse_radical_number(group.substr(0, dash), group, text);
    const int last = dash == std::string_view::npos ? first : parse_radical_number(group.substr(dash + 1), group, text);
    if (last < first)
      throw InputError("", 0, "empty radical range '" + std::string(group) + "' in '" + std::string(text) + "'");
    ranges.emplace_back(first, last);
    hosts += static_cast<uint64_t>(int64_t(last) - first + 1);
  }
  check_host_count(hosts, "radical '" + std::string(text) + "'"); // before expanding "0-2000000000"
  std::vector<int> radicals;
  radicals.reserve(hosts);
  for (const auto& [first, last] : ranges)
    for (int64_t radical = first; radical <= last; radical++) // int64: `last` may be INT_MAX
      radicals.push_back(static_cast<int>(radical));
  return radicals;
}

std::vector<uint32_t> parse_count_list(std::string_view list, const std::string& what)
{
  std::vector<uint32_t> counts;
  for (std::string_view item : split(list, ',')) {
    uint32_t value = 0;
    auto [end, err] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || err != std::errc() || end != item.data() + item.size() || value == 0)
      throw InputError("", 0,
                       "bad " + what + " '" + std::string(item) + "' in '" + std::string(list) +
                           "' (expected positive integers separated by commas)");
    counts.push_back(value);
  }
  return counts;
}

void build_cluster(const ClusterSpec& spec, PlatformBuilder& builder, Zone* parent)
{
  const TopologyEntry* topology = find_topology_by_xml_name(spec.topology);
  if (topology == nullptr)
    throw InputError("", 0,
                     "unknown topology '" + spec.topology + "' for cluster '" + spec.id +
                         "' (known: " + topology_xml_names() + ")");
  if (spec.speeds.empty())
    throw InputError("", 0, "cluster '" + spec.id + "' has no speed");
  topology->build(spec, builder, parent);
}

ClusterLeaf add_cluster_leaf(const ClusterSpec& spec, PlatformBuilder& builder, Zone& zone, size_t position)
{
  ClusterLeaf leaf;
  leaf.host = builder.add_host(zone, {spec.host_name(position), spec.speeds.front(), spec.cores, spec.properties});
  if (spec.has_loopback())
    leaf.loopback = builder.add_link({spec.id + "_link_" + std::to_string(spec.radicals[position]) + "_loopback",
                                      spec.loopback_bandwidth, spec.loopback_latency, LinkSharing::Fatpipe});
  if (spec.limiter_bandwidth > 0)
    leaf.limiter = add_cluster_limiter(spec, builder, position);
  return leaf;
}

LinkId add_cluster_limiter(const ClusterSpec& spec, PlatformBuilder& builder, uint64_t id)
{
  return builder.add_link(
      {spec.id + "_link_" + std::to_string(id) + "_limiter", spec.limiter_bandwidth, 0, LinkSharing::Shared});
}

std::pair<LinkId, LinkId> add_cluster_link(const ClusterSpec& spec, PlatformBuilder& builder, const std::string& name,
                                           double bandwidth_factor)
{
  const double bandwidth = spec.bandwidth * bandwidth_factor;
  if (spec.sharing == ClusterSharing::SplitDuplex) {
    LinkId up = builder.add_link({name + "_UP", bandwidth, spec.latency, LinkSharing::Shared});
    LinkId down = builder.add_link({name + "_DOWN", bandwidth, spec.latency, LinkSharing::Shared});
    return {up, down};
  }
  LinkId both = builder.add_link({name, bandwidth, spec.latency, LinkSharing::Shared});
  return {both, both};
}

uint64_t links_per_cable(const ClusterSpec& spec)
{
  return spec.sharing == ClusterSharing::SplitDuplex ? 2 : 1;
}

void check_hierarchical_cluster(const ClusterSpec& spec, PlatformBuilder& builder, size_t host_count, uint64_t elements)
{
  check_host_count(host_count, "cluster '" + spec.id + "' (" + spec.topology + " " + spec.topo_parameters + ")",
                   elements);
  if (!(spec.bandwidth > 0))
    throw InputError("", 0, "cluster '" + spec.id + "' needs a positive bw");
  if (spec.radicals.size() < host_count)
    throw InputError("", 0,
                     "cluster '" + spec.id + "': topology " + spec.topology + " '" + spec.topo_parameters + "' has " +
                         std::to_string(host_count) + " hosts but the radicals name only " +
                         std::to_string(spec.radicals.size()));
  if (spec.radicals.size() > host_count)
    builder.warn_at(spec.line, "cluster '" + spec.id + "': topology " + spec.topology + " '" + spec.topo_parameters +
                                   "' has " + std::to_string(host_count) + " hosts; the last " +
                                   std::to_string(spec.radicals.size() - host_count) + " radicals are not used");
  if (spec.sharing == ClusterSharing::Fatpipe)
    builder.warn_at(spec.line, "cluster '" + spec.id +
                                   "': sharing_policy FATPIPE gives SHARED links (as in SimGrid 3.32, which ignores it "
                                   "here)");
  if (spec.has_backbone() || !spec.router_id.empty())
    builder.warn_at(spec.line, "cluster '" + spec.id +
                                   "': bb_bw, bb_lat and router_id apply to FLAT clusters only and are ignored");
}

} // namespace mpisim::platform
