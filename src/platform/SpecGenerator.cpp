// generate_platform: a platform from a one-line spec, "<kind>:<shape>[,key=value...]".
//
// The spec becomes a ClusterSpec, the same record a <cluster> element becomes, and the cluster
// topology from the registry builds it as the root zone: a spec and the equivalent file give the
// same platform. The shape is the topology's own parameter string, so it may contain commas
// ("fattree:2;4,4;1,2;1,2"); options start at the first comma followed by "key=" (a shape never
// contains '='). See docs/platforms.md for the keys and defaults.
#include "common/Errors.hpp"
#include "common/Units.hpp"
#include "platform/ClusterSpec.hpp"
#include "platform/HierarchySpec.hpp"
#include "platform/Platform.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/PlatformSize.hpp"
#include "platform/routing/Registry.hpp"

#include <cctype>
#include <charconv>
#include <map>
#include <set>

namespace mpisim::platform {
namespace {

// Position of the comma that starts the options, or npos.
size_t options_start(std::string_view text)
{
  for (size_t comma = text.find(','); comma != std::string_view::npos; comma = text.find(',', comma + 1)) {
    size_t i = comma + 1;
    while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
      i++;
    if (i > comma + 1 && i < text.size() && text[i] == '=')
      return comma;
  }
  return std::string_view::npos;
}

class SpecReader {
public:
  explicit SpecReader(std::string_view spec) : spec_(spec) {}

  std::unique_ptr<Platform> build()
  {
    const size_t colon = spec_.find(':');
    if (colon == std::string_view::npos)
      fail("missing ':' after the kind (e.g. \"cluster:16\")");
    const std::string kind(spec_.substr(0, colon));
    if (kind == "hierarchy")
      return generate_hierarchy(spec_);
    const TopologyEntry* topology = find_topology_by_spec_name(kind);
    if (topology == nullptr) {
      std::string known;
      for (const auto& entry : cluster_topologies())
        known += (known.empty() ? "" : ", ") + entry.spec_name;
      known += ", hierarchy";
      fail("unknown kind '" + kind + "' (known: " + known + ")");
    }
    std::string_view rest = spec_.substr(colon + 1);
    const size_t options = options_start(rest);
    std::string_view shape = rest.substr(0, options);
    if (options != std::string_view::npos)
      read_options(rest.substr(options + 1));

    ClusterSpec cluster;
    cluster.id = option("id", kind);
    cluster.prefix = option("prefix", "node-");
    cluster.suffix = option("suffix", "");
    cluster.topology = topology->xml_name;
    size_t hosts = 0;
    if (kind == "cluster") {
      hosts = positive_count(shape);
    } else {
      cluster.topo_parameters = kind == "torus" ? torus_dimensions(shape) : std::string(shape);
      try {
        hosts = topology->host_count(cluster.topo_parameters);
      } catch (const InputError& error) {
        fail(error.message());
      }
      for (const char* key : {"bb_bw", "bb_lat", "bb_sharing", "router_id"}) {
        if (options_.count(key))
          fail("option '" + std::string(key) + "' applies to cluster: specs only");
      }
    }
    try {
      check_host_count(hosts, "the shape"); // before the radicals, one per host, are made
    } catch (const InputError& error) {
      fail(error.message());
    }
    for (size_t i = 0; i < hosts; i++)
      cluster.radicals.push_back(static_cast<int>(i));

    cluster.speeds = {quantity("speed", "1Gf", units::parse_speed)};
    cluster.cores = static_cast<int>(positive_count(option("cores", "1")));
    cluster.bandwidth = quantity("bw", "125MBps", units::parse_bandwidth);
    cluster.latency = quantity("lat", "50us", units::parse_time);
    cluster.sharing = sharing(option("sharing", "SPLITDUPLEX"));
    cluster.backbone_bandwidth = quantity("bb_bw", "0", units::parse_bandwidth);
    cluster.backbone_latency = quantity("bb_lat", "0", units::parse_time);
    const std::string bb_sharing = option("bb_sharing", "SHARED");
    if (bb_sharing != "SHARED" && bb_sharing != "FATPIPE")
      fail("bad bb_sharing '" + bb_sharing + "' (expected SHARED or FATPIPE)");
    cluster.backbone_sharing = bb_sharing == "FATPIPE" ? LinkSharing::Fatpipe : LinkSharing::Shared;
    cluster.router_id = option("router_id", "");
    cluster.limiter_bandwidth = quantity("limiter", "0", units::parse_bandwidth);
    cluster.loopback_bandwidth = quantity("loopback_bw", "0", units::parse_bandwidth);
    cluster.loopback_latency = quantity("loopback_lat", "0", units::parse_time);
    for (const auto& [key, value] : options_) {
      if (!used_.count(key))
        fail("unknown option '" + key +
             "' (known: id, prefix, suffix, speed, cores, bw, lat, sharing, limiter, "
             "loopback_bw, loopback_lat, bb_bw, bb_lat, bb_sharing, router_id)");
    }

    PlatformBuilder builder;
    try {
      build_cluster(cluster, builder, nullptr);
      return builder.finish();
    } catch (const InputError& error) {
      fail(error.message());
    }
  }

private:
  [[noreturn]] void fail(const std::string& message) const
  {
    throw InputError("", 0, "platform spec '" + std::string(spec_) + "': " + message);
  }

  void read_options(std::string_view text)
  {
    for (std::string_view item : split(text, ',')) {
      const size_t equal = item.find('=');
      if (equal == std::string_view::npos || equal == 0)
        fail("option '" + std::string(item) + "' is not key=value");
      std::string key(item.substr(0, equal));
      if (!options_.try_emplace(key, std::string(item.substr(equal + 1))).second)
        fail("option '" + key + "' is given twice");
    }
  }

  std::string option(const std::string& key, const std::string& fallback)
  {
    used_.insert(key);
    auto found = options_.find(key);
    return found == options_.end() ? fallback : found->second;
  }

  // Spec values need their unit: unit-less values are only tolerated in old files.
  double quantity(const std::string& key, const std::string& fallback,
                  double (*parse)(std::string_view, const units::WarningHandler&))
  {
    const std::string value = option(key, fallback);
    bool unit_less = false;
    double result = 0;
    try {
      result = parse(value, [&](const std::string&) { unit_less = true; });
    } catch (const InputError& error) {
      fail("option " + key + ": " + error.message());
    }
    if (unit_less)
      fail("option " + key + ": '" + value + "' needs a unit");
    return result;
  }

  size_t positive_count(std::string_view text) const
  {
    size_t value = 0;
    auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || err != std::errc() || end != text.data() + text.size() || value == 0)
      fail(std::string("'").append(text).append("' is not a positive integer"));
    return value;
  }

  // "8x8x8" or "8,8,8" -> "8,8,8"
  std::string torus_dimensions(std::string_view shape) const
  {
    std::string dimensions(shape);
    for (char& c : dimensions)
      if (c == 'x')
        c = ',';
    return dimensions;
  }

  ClusterSharing sharing(const std::string& value) const
  {
    if (value == "SPLITDUPLEX")
      return ClusterSharing::SplitDuplex;
    if (value == "SHARED")
      return ClusterSharing::Shared;
    if (value == "FATPIPE")
      return ClusterSharing::Fatpipe;
    fail("bad sharing '" + value + "' (expected SPLITDUPLEX, SHARED or FATPIPE)");
  }

  std::string_view spec_;
  std::map<std::string, std::string> options_;
  std::set<std::string> used_;
};

} // namespace

std::unique_ptr<Platform> generate_platform(std::string_view spec)
{
  return SpecReader(spec).build();
}

} // namespace mpisim::platform
