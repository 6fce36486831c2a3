// generate_platform: a platform from a one-line spec, "<kind>:<shape>[,key=value...]".
//
// The spec becomes a ClusterSpec, the same record a <cluster> element becomes, and the cluster
// topology from the registry builds it as the root zone: a spec and the equivalent file give the
// same platform. The shape is the topology's own parameter string, so it may contain commas
// ("fattree:2;4,4;1,2;1,2"); options start at the first comma followed by "key=" (a shape never
// contains '='). See docs/platforms.md for the keys and defaults.
//
// Storage options (io_servers, disk, ...) fill the StorageSpec the XML loader fills from <disk> and the io/ props:
// a disk preset is the storage side of a bundled platform file, so that a spec can stand for it.
#include "common/Errors.hpp"
#include "common/Units.hpp"
#include "platform/BundledPlatforms.hpp"
#include "platform/ClusterSpec.hpp"
#include "platform/HierarchySpec.hpp"
#include "platform/Platform.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/PlatformSize.hpp"
#include "platform/routing/Registry.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <set>

namespace mpisim::platform {
namespace {

// What "disk=" gives each disk-holding host, and the file system around it.
struct StoragePreset {
  DiskSpec disk;
  int disks_per_host = 1;
  CacheSpec cache;
  double stripe_size = 0;
  double open_cost = 0;
  double close_cost = 0;
  double request_overhead = 0;
};

constexpr double kKiB = 1024;
constexpr double kMiB = 1024 * kKiB;
constexpr double kGiB = 1024 * kMiB;
constexpr int kMaxDisksPerHost = 1024; // a typo's guard: every disk is an object

// A preset standing for a bundled platform file: the storage of its first file server (every server of those files
// has the same disks and cache) and its file system's defaults, read by the XML loader from the compiled-in text.
StoragePreset bundled_storage(const std::string& disk_name, std::string_view file_name)
{
  const std::string source = "platforms/" + std::string(file_name);
  const std::unique_ptr<Platform> platform = load_platform_text(source, std::string(bundled_platform_text(file_name)));
  const StorageSpec& storage = platform->storage();
  if (storage.servers.empty())
    throw InputError(source, 0, "a disk preset's platform has no file server");
  const FileServerSpec& server = storage.servers.front();
  const std::vector<DiskSpec>& disks = storage.disks.at(server.host);
  StoragePreset preset;
  preset.disk = disks.front();
  preset.disk.name = disk_name;
  preset.disks_per_host = static_cast<int>(disks.size());
  preset.cache = server.cache;
  preset.stripe_size = storage.stripe_size;
  preset.open_cost = storage.open_cost;
  preset.close_cost = storage.close_cost;
  preset.request_overhead = storage.request_overhead;
  return preset;
}

// Our choice: a SATA SSD of current datasheets (560/530 MB/s, 50 us per access) behind the nvme servers' file system
// and a smaller cache.
StoragePreset sata_ssd_storage()
{
  StoragePreset preset = bundled_storage("ssd", "io-nvme.xml");
  preset.disk = {
      .name = "ssd", .kind = DiskKind::Ssd, .read_bandwidth = 560e6, .write_bandwidth = 530e6, .latency = 50e-6};
  preset.disks_per_host = 1;
  preset.cache = {.size = 16 * kGiB, .memory_bandwidth = 10e9, .write_behind = true, .read_ahead = 1 * kMiB};
  return preset;
}

// The values of "disk=": nvme and hdd are the storage of platforms/io-nvme.xml and platforms/pio-cluster-10.xml (their
// comments give the sources), so that a spec can stand for those files.
struct StoragePresetRow {
  std::string_view name;
  StoragePreset (*make)();
};
constexpr std::array<StoragePresetRow, 3> kStoragePresets = {{
    {"nvme", [] { return bundled_storage("nvme", "io-nvme.xml"); }},
    {"ssd", sata_ssd_storage},
    {"hdd", [] { return bundled_storage("hdd", "pio-cluster-10.xml"); }},
}};

std::optional<StoragePreset> storage_preset(std::string_view name)
{
  for (const StoragePresetRow& row : kStoragePresets) {
    if (row.name == name)
      return row.make();
  }
  return std::nullopt;
}

std::string storage_preset_names()
{
  std::string names;
  for (size_t i = 0; i < kStoragePresets.size(); i++)
    names.append(i == 0 ? "" : i + 1 == kStoragePresets.size() ? " or " : ", ").append(kStoragePresets[i].name);
  return names;
}

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
    const size_t servers = file_server_count(kind, hosts);
    if (kind == "cluster") { // the servers are extra hosts: the compute ones keep their names and numbers
      hosts += servers;
      try {
        check_host_count(hosts, "the shape and io_servers");
      } catch (const InputError& error) {
        fail(error.message());
      }
      for (size_t i = 0; i < servers; i++)
        cluster.last_host_names.push_back("io-" + std::to_string(i));
    }
    for (size_t i = 0; i < hosts; i++)
      cluster.radicals.push_back(static_cast<int>(i));
    const std::optional<StoragePreset> storage = read_storage(servers);

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
             "loopback_bw, loopback_lat, bb_bw, bb_lat, bb_sharing, router_id, "
             "io_servers, disk, disks, stripe, stripe_count, io_cache)");
    }

    PlatformBuilder builder;
    try {
      build_cluster(cluster, builder, nullptr);
      if (storage)
        add_storage(*storage, cluster, servers, builder);
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

  // "io_servers=N": N extra hosts for cluster:, the last N hosts otherwise (at least one host left to compute).
  size_t file_server_count(const std::string& kind, size_t hosts)
  {
    const std::string text = option("io_servers", "");
    if (text.empty())
      return 0;
    const size_t servers = positive_count(text);
    try {
      check_host_count(servers, "io_servers"); // before adding it to the shape's count, which it could wrap
    } catch (const InputError& error) {
      fail(error.message());
    }
    if (kind != "cluster" && servers >= hosts)
      fail("option io_servers: " + text + " servers leave none of the " + std::to_string(hosts) + " hosts to compute");
    return servers;
  }

  // The storage options, checked before anything is built; nullopt when the spec gives none.
  std::optional<StoragePreset> read_storage(size_t servers)
  {
    const std::string disk = option("disk", servers > 0 ? "nvme" : "");
    if (disk.empty()) {
      for (const char* key : {"disks", "stripe", "stripe_count", "io_cache"}) {
        if (options_.count(key))
          fail("option '" + std::string(key) + "' needs disk= or io_servers=");
      }
      return std::nullopt;
    }
    std::optional<StoragePreset> preset = storage_preset(disk);
    if (!preset)
      fail("bad disk '" + disk + "' (expected " + storage_preset_names() + ")");
    if (options_.count("disks")) {
      preset->disks_per_host = static_cast<int>(positive_count(option("disks", "")));
      if (preset->disks_per_host > kMaxDisksPerHost)
        fail("option disks: more than " + std::to_string(kMaxDisksPerHost) + " disks per host");
    }
    if (options_.count("stripe")) {
      preset->stripe_size = quantity("stripe", "", units::parse_size);
      if (!(preset->stripe_size > 0))
        fail("option stripe: must be positive");
    }
    if (options_.count("io_cache")) {
      preset->cache.size = quantity("io_cache", "", units::parse_size);
      if (!(preset->cache.size >= 0))
        fail("option io_cache: must be zero or positive");
    }
    if (options_.count("stripe_count")) {
      const size_t stripe_count = positive_count(option("stripe_count", ""));
      if (stripe_count > servers)
        fail("option stripe_count: " + std::to_string(stripe_count) + " exceeds the " + std::to_string(servers) +
             " file servers of io_servers");
      stripe_count_ = static_cast<int>(stripe_count);
    }
    return preset;
  }

  // Disks on the servers (on every host when there are none: files then live on the accessing host's disks).
  void add_storage(const StoragePreset& preset, const ClusterSpec& cluster, size_t servers, PlatformBuilder& builder)
  {
    StorageSpec& storage = builder.storage();
    const size_t hosts = cluster.radicals.size();
    const size_t first_disk_host = servers > 0 ? hosts - servers : 0;
    for (size_t position = first_disk_host; position < hosts; position++) {
      const HostId host = builder.point(*builder.find_point(cluster.host_name(position))).host;
      std::vector<DiskSpec>& disks = storage.disks[host];
      for (int i = 0; i < preset.disks_per_host; i++) {
        disks.push_back(preset.disk);
        disks.back().name = preset.disk.name + std::to_string(i);
      }
      if (servers > 0) {
        storage.caches[host] = preset.cache;
        storage.servers.push_back({host, preset.cache});
      }
    }
    storage.stripe_size = preset.stripe_size;
    storage.stripe_count = stripe_count_;
    storage.open_cost = preset.open_cost;
    storage.close_cost = preset.close_cost;
    storage.request_overhead = preset.request_overhead;
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
  int stripe_count_ = 0; // 0: all servers
};

} // namespace

std::unique_ptr<Platform> generate_platform(std::string_view spec)
{
  return SpecReader(spec).build();
}

} // namespace mpisim::platform
