// Reads SimGrid platform files (DTD v4 and v4.1, as SimGrid 3.32 reads them) into a Platform.
//
// The file is parsed by pugixml, then walked element by element in document order, so that names
// must be declared before use (as in SimGrid). Every element and attribute is checked against the
// DTD; every problem throws InputError(path, line, message) where the line is the one of the
// offending element (pugixml gives byte offsets; LineIndex turns them into line numbers).
#include "common/Errors.hpp"
#include "common/InputFiles.hpp"
#include "common/Units.hpp"
#include "platform/ClusterSpec.hpp"
#include "platform/Platform.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/XmlSchema.hpp"
#include "platform/routing/Registry.hpp"
#include "platform/routing/StarRouting.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace mpisim::platform {
namespace {

// A zone being read, with what <zone routing="Cluster"> collects until its end tag.
// Real platforms nest a handful of zones (a site, its clusters, their cabinets); 10 000 levels overflowed the stack.
constexpr int kMaxZoneDepth = 1000;

struct OpenZone {
  Zone* zone = nullptr;
  int depth = 1;               // the top-level zone is at depth 1
  StarRouting* star = nullptr; // routing="Cluster"
  ZoneContent content = ZoneContent::Undecided;
  LinkId backbone = kNoLink;
  struct HostLink {
    std::string host, up, down;
    long line;
  };
  std::vector<HostLink> host_links;
  struct CabinetHost {
    HostId host;
    LinkId up, down;
  };
  std::vector<CabinetHost> cabinet_hosts;
};

class XmlLoader {
public:
  XmlLoader(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)), lines_(text_)
  {
    builder_.set_source(path_);
  }

  std::unique_ptr<Platform> load()
  {
    pugi::xml_document document;
    // Parsed from a copy: pugixml parses in place, and offsets refer to the buffer it was given.
    pugi::xml_parse_result parsed = document.load_buffer(text_.data(), text_.size(), pugi::parse_default);
    if (!parsed)
      throw InputError(path_, lines_.line_of(parsed.offset), std::string("malformed XML: ") + parsed.description());
    pugi::xml_node platform = document.document_element();
    if (std::strcmp(platform.name(), "platform") != 0)
      throw InputError(path_, line(platform),
                       std::string("the root element is <") + platform.name() + ">, expected <platform>");
    located(platform, [&] { read_platform(platform); });
    resolve_file_servers();
    try {
      return builder_.finish();
    } catch (const InputError& error) {
      throw InputError(path_, error.line(), error.message());
    }
  }

private:
  long line(const pugi::xml_node& node) const { return lines_.line_of(node.offset_debug()); }

  // Runs `read`, giving file and line to the InputErrors that have none yet.
  template <typename Read> void located(const pugi::xml_node& node, Read&& read)
  {
    try {
      read();
    } catch (const InputError& error) {
      if (!error.file().empty())
        throw;
      throw InputError(path_, error.line() > 0 ? error.line() : line(node), error.message());
    }
  }

  [[noreturn]] void fail(const std::string& message) const { throw InputError("", 0, message); }

  void warn(const pugi::xml_node& node, const std::string& message) { builder_.warn_at(line(node), message); }

  // --- attributes ---

  void check_attributes(const pugi::xml_node& node) const
  {
    const ElementRule& rule = element_rules().at(node.name());
    for (pugi::xml_attribute attribute : node.attributes()) {
      std::string_view name = attribute.name();
      if (std::find(rule.required.begin(), rule.required.end(), name) == rule.required.end() &&
          std::find(rule.optional.begin(), rule.optional.end(), name) == rule.optional.end())
        fail("unknown attribute '" + std::string(name) + "' in <" + node.name() + ">");
    }
    for (std::string_view name : rule.required) {
      if (!node.attribute(std::string(name).c_str()))
        fail("<" + std::string(node.name()) + "> needs the attribute '" + std::string(name) + "'");
    }
  }

  static std::string text(const pugi::xml_node& node, const char* name, const char* fallback = "")
  {
    pugi::xml_attribute attribute = node.attribute(name);
    return attribute ? attribute.value() : fallback;
  }

  // A value with a unit; `owner` names the element for messages ("link 'l1'").
  double quantity(const pugi::xml_node& node, const char* name, const std::string& owner,
                  double (*parse)(std::string_view, const units::WarningHandler&), const char* fallback = nullptr)
  {
    pugi::xml_attribute attribute = node.attribute(name);
    std::string value = attribute ? attribute.value() : (fallback ? fallback : "");
    try {
      return parse(value, [&](const std::string& message) { warn(node, owner + " " + name + ": " + message); });
    } catch (const InputError& error) {
      fail(owner + " " + name + ": " + error.message());
    }
  }

  std::vector<double> speeds(const pugi::xml_node& node, const std::string& owner)
  {
    try {
      return units::parse_speed_list(text(node, "speed"),
                                     [&](const std::string& message) { warn(node, owner + " speed: " + message); });
    } catch (const InputError& error) {
      fail(owner + " speed: " + error.message());
    }
  }

  int count(const pugi::xml_node& node, const char* name, const std::string& owner, const char* fallback) const
  {
    std::string value = text(node, name, fallback);
    char* end = nullptr;
    errno = 0;
    long parsed = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || errno == ERANGE || parsed < 1 || parsed > 1 << 30)
      fail(owner + " " + name + ": '" + value + "' is not a positive integer");
    return static_cast<int>(parsed);
  }

  // One of `allowed` (exact spelling), or `fallback` when the attribute is absent.
  std::string choice(const pugi::xml_node& node, const char* name, const std::string& owner,
                     std::initializer_list<std::string_view> allowed, const char* fallback) const
  {
    std::string value = text(node, name, fallback);
    if (std::find(allowed.begin(), allowed.end(), value) != allowed.end())
      return value;
    std::string list;
    for (std::string_view item : allowed)
      list += (list.empty() ? "" : ", ") + std::string(item);
    fail(owner + ": bad " + name + " '" + value + "' (expected one of " + list + ")");
  }

  // --- structure ---

  void check_no_text(const pugi::xml_node& node) const
  {
    for (pugi::xml_node child : node.children()) {
      if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
        std::string_view words = child.value();
        words.remove_prefix(std::min(words.find_first_not_of(" \t\r\n"), words.size()));
        words.remove_suffix(words.size() - std::min(words.find_last_not_of(" \t\r\n") + 1, words.size()));
        fail("unexpected text '" + std::string(words) + "' in <" + node.name() + ">");
      }
    }
  }

  // Child elements of `node`, after checking each is allowed there.
  std::vector<pugi::xml_node> elements(const pugi::xml_node& node, std::initializer_list<std::string_view> allowed)
  {
    check_no_text(node);
    std::vector<pugi::xml_node> children;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element)
        continue;
      located(child, [&] {
        std::string_view name = child.name();
        if (!element_rules().count(name))
          fail("unknown element <" + std::string(name) + "> in <" + node.name() + ">");
        if (auto removed = removed_elements().find(name); removed != removed_elements().end())
          fail(std::string(removed->second));
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
          fail("element <" + std::string(name) + "> is not allowed in <" + node.name() + ">");
        check_attributes(child);
      });
      children.push_back(child);
    }
    return children;
  }

  std::map<std::string, std::string> properties(const pugi::xml_node& node)
  {
    std::map<std::string, std::string> result;
    for (pugi::xml_node prop : node.children("prop"))
      result.try_emplace(prop.attribute("id").value(), prop.attribute("value").value());
    return result;
  }

  // --- elements ---

  void read_platform(const pugi::xml_node& platform)
  {
    check_attributes(platform);
    check_version(platform);
    bool content_started = false;
    for (pugi::xml_node child : elements(platform, {"config", "random", "include", "cluster", "cabinet", "peer", "AS",
                                                    "zone", "trace", "trace_connect", "process", "actor"})) {
      located(child, [&] {
        std::string_view name = child.name();
        if (name == "config") {
          if (content_started)
            fail("<config> must come before any zone, cluster or other platform element");
          read_config(child);
          return;
        }
        if (name != "random")
          content_started = true;
        if (name == "zone" || name == "AS")
          read_zone(child, nullptr);
        else if (name == "cluster")
          read_cluster(child, nullptr);
        else if (name == "cabinet")
          fail("<cabinet> belongs in a <zone routing=\"Cluster\">");
        else if (name == "trace_connect")
          warn(child, "<trace_connect> ignored: mpisim does not vary resources over time");
        // trace, random, process and actor: nothing to do (actors belong to deployment files).
      });
    }
  }

  void check_version(const pugi::xml_node& platform)
  {
    const std::string version = text(platform, "version", "0.0");
    char* end = nullptr;
    double parsed = std::strtod(version.c_str(), &end);
    if (version.empty() || *end != '\0')
      fail("bad platform version '" + version + "'");
    // SimGrid compares hundredths, so that "4.1" is exact.
    const long hundredths = std::lround(parsed * 100);
    if (hundredths < 400)
      fail("platform version '" + version +
           "' is too old: mpisim reads versions 4 and 4.1 (SimGrid's simgrid_update_xml upgrades older files)");
    if (hundredths > 410)
      fail("platform version '" + version + "' is newer than 4.1, the most recent version mpisim reads");
  }

  void read_config(const pugi::xml_node& config)
  {
    for (pugi::xml_node prop : elements(config, {"prop"})) {
      const std::string key = prop.attribute("id").value();
      const std::string value = prop.attribute("value").value();
      if (!builder_.add_config(key, value))
        warn(prop, "configuration '" + key + "' is already set; '" + value + "' ignored");
    }
  }

  void read_zone(const pugi::xml_node& element, OpenZone* parent)
  {
    const int depth = parent ? parent->depth + 1 : 1;
    if (depth > kMaxZoneDepth) // the walk and the zone tree's checks recurse: bounded, not a stack overflow
      fail("zones nested " + std::to_string(depth) + " deep: mpisim reads at most " + std::to_string(kMaxZoneDepth) +
           " levels of nested zones");
    const std::string id = text(element, "id");
    const std::string routing = text(element, "routing");
    if (std::string_view(element.name()) == "AS")
      warn(element, "<AS> is deprecated: use <zone>");
    const ZoneRoutingEntry* entry = find_zone_routing(routing);
    if (entry == nullptr) {
      std::string lowered = routing;
      std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) { return std::tolower(c); });
      if (lowered == "vivaldi" || lowered == "wifi")
        fail("zone '" + id + "': routing '" + routing + "' is not supported by mpisim");
      fail("zone '" + id + "': unknown routing '" + routing + "' (known: " + zone_routing_names() + ")");
    }
    OpenZone zone;
    zone.depth = depth;
    zone.zone = &builder_.add_zone(parent ? parent->zone : nullptr, entry->create(id), line(element));
    zone.star = dynamic_cast<StarRouting*>(zone.zone);
    zone.zone->set_properties(properties(element));
    read_file_system(element, "zone '" + id + "'");
    for (pugi::xml_node child :
         elements(element, {"prop",      "AS",         "zone",          "include",         "link",
                            "backbone",  "cluster",    "peer",          "trace",           "trace_connect",
                            "zoneRoute", "ASroute",    "bypassASroute", "bypassZoneRoute", "storage_type",
                            "storage",   "host",       "cabinet",       "router",          "host_link",
                            "route",     "bypassRoute"})) {
      located(child, [&] { read_zone_child(child, zone); });
    }
    if (zone.star != nullptr)
      located(element, [&] { finish_cluster_zone(zone); });
  }

  void read_zone_child(const pugi::xml_node& child, OpenZone& zone)
  {
    const std::string_view name = child.name();
    const ZoneContent kind = content_kind(name);
    if (kind != ZoneContent::Undecided) {
      if (zone.content != ZoneContent::Undecided && zone.content != kind)
        fail("<" + std::string(name) + "> cannot go in zone '" + zone.zone->name() + "', which already holds " +
             (zone.content == ZoneContent::Leaf ? "hosts or routers" : "sub-zones") +
             ": a zone holds either hosts and routers or sub-zones");
      zone.content = kind;
    }
    if (name == "zone" || name == "AS")
      read_zone(child, &zone);
    else if (name == "cluster")
      read_cluster(child, &zone);
    else if (name == "host")
      read_host(child, zone);
    else if (name == "link")
      read_link(child);
    else if (name == "router")
      builder_.add_router(*zone.zone, text(child, "id"));
    else if (name == "route" || name == "zoneRoute" || name == "ASroute")
      zone.zone->add_route(read_route(child, true), builder_.context());
    else if (name == "bypassRoute" || name == "bypassZoneRoute" || name == "bypassASroute")
      zone.zone->add_bypass_route(read_route(child, false), builder_.context());
    else if (name == "backbone")
      read_backbone(child, zone);
    else if (name == "host_link")
      read_host_link(child, zone);
    else if (name == "cabinet")
      read_cabinet(child, zone);
    else if (name == "trace_connect")
      warn(child, "<trace_connect> ignored: mpisim does not vary resources over time");
    // prop (zone properties, read with the zone) and trace: nothing to do.
  }

  void read_host(const pugi::xml_node& element, OpenZone& zone)
  {
    const std::string id = text(element, "id");
    const std::string owner = "host '" + id + "'";
    std::vector<double> per_state = speeds(element, owner);
    const std::string pstate_text = text(element, "pstate", "0");
    char* end = nullptr;
    const double pstate = std::strtod(pstate_text.c_str(), &end);
    if (pstate_text.empty() || *end != '\0' || pstate < 0 || pstate != std::floor(pstate) ||
        pstate >= static_cast<double>(per_state.size()))
      fail(owner + ": pstate '" + pstate_text + "' is not one of its " + std::to_string(per_state.size()) +
           " power states (numbered from 0)");
    for (const char* ignored : {"speed_file", "availability_file", "state_file"}) {
      if (element.attribute(ignored))
        warn(element, owner + ": " + ignored + " ignored (mpisim does not vary resources over time)");
    }
    std::vector<pugi::xml_node> children = elements(element, {"prop", "disk", "mount"});
    std::vector<DiskSpec> disks;
    for (pugi::xml_node child : children) {
      if (std::string_view(child.name()) == "mount")
        located(child, [&] { fail(std::string(removed_elements().at("mount"))); });
      if (std::string_view(child.name()) == "disk")
        located(child, [&] { disks.push_back(read_disk(child, owner, disks.size())); });
    }
    const CacheSpec cache = read_cache(element, owner);
    const HostId host = builder_.add_host(*zone.zone, {id, per_state[static_cast<size_t>(pstate)],
                                                       count(element, "core", owner, "1"), properties(element)});
    if (!disks.empty())
      builder_.storage().disks[host] = std::move(disks);
    if (has_io_property(element))
      builder_.storage().caches[host] = cache;
  }

  // --- storage (platform/Storage.hpp, docs/io.md) ---

  // A storage value with a unit, checked positive (or zero when `zero_allowed`).
  double storage_quantity(const pugi::xml_node& node, const std::string& key, const std::string& value,
                          const std::string& owner, double (*parse)(std::string_view, const units::WarningHandler&),
                          bool zero_allowed)
  {
    double parsed = 0;
    try {
      parsed = parse(value, [&](const std::string& message) { warn(node, owner + " " + key + ": " + message); });
    } catch (const InputError& error) {
      fail(owner + " " + key + ": " + error.message());
    }
    if (!(parsed > 0) && !(zero_allowed && parsed == 0))
      fail(owner + " " + key + ": '" + value + "' must be " + (zero_allowed ? "zero or positive" : "positive"));
    return parsed;
  }

  double positive_number(const std::string& key, const std::string& value, const std::string& owner) const
  {
    char* end = nullptr;
    const double parsed = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(parsed > 0) || !std::isfinite(parsed))
      fail(owner + " " + key + ": '" + value + "' must be a positive number");
    return parsed;
  }

  static bool is_io_property(const pugi::xml_node& prop)
  {
    return std::string_view(prop.attribute("id").value()).starts_with("io/");
  }

  static bool has_io_property(const pugi::xml_node& node)
  {
    for (pugi::xml_node prop : node.children("prop")) {
      if (is_io_property(prop))
        return true;
    }
    return false;
  }

  DiskSpec read_disk(const pugi::xml_node& element, const std::string& host, size_t index)
  {
    DiskSpec disk;
    disk.name = text(element, "id", ("disk-" + std::to_string(index)).c_str());
    const std::string owner = host + " disk '" + disk.name + "'";
    elements(element, {"prop"});
    disk.read_bandwidth =
        storage_quantity(element, "read_bw", text(element, "read_bw"), owner, units::parse_bandwidth, false);
    disk.write_bandwidth =
        storage_quantity(element, "write_bw", text(element, "write_bw"), owner, units::parse_bandwidth, false);
    std::map<std::string, pugi::xml_node> props;
    for (pugi::xml_node prop : element.children("prop"))
      props.try_emplace(prop.attribute("id").value(), prop);
    auto value_of = [&](const char* key) { return std::string(props.at(key).attribute("value").value()); };
    if (props.count("kind")) {
      located(props.at("kind"), [&] {
        const std::string kind = value_of("kind");
        if (kind != "hdd" && kind != "ssd")
          fail(owner + ": bad kind '" + kind + "' (expected hdd or ssd)");
        disk.kind = kind == "hdd" ? DiskKind::Hdd : DiskKind::Ssd;
      });
    }
    auto time_prop = [&](const char* key, double& field, bool zero_allowed) {
      if (props.count(key))
        located(props.at(key), [&] {
          field = storage_quantity(props.at(key), key, value_of(key), owner, units::parse_time, zero_allowed);
        });
    };
    time_prop("latency", disk.latency, true);
    if (disk.kind == DiskKind::Ssd)
      return disk;
    for (const char* key : {"average_seek", "track_to_track_seek", "rpm"}) {
      if (!props.count(key))
        fail(owner + ": a disk of kind hdd needs <prop id=\"" + key + "\">");
    }
    time_prop("average_seek", disk.average_seek, false);
    time_prop("track_to_track_seek", disk.track_to_track_seek, false);
    located(props.at("rpm"), [&] { disk.rpm = positive_number("rpm", value_of("rpm"), owner); });
    if (props.count("seek_window"))
      located(props.at("seek_window"), [&] {
        disk.seek_window = storage_quantity(props.at("seek_window"), "seek_window", value_of("seek_window"), owner,
                                            units::parse_size, true);
      });
    return disk;
  }

  // A host's io/ props: its cache when it is a file server.
  CacheSpec read_cache(const pugi::xml_node& element, const std::string& owner)
  {
    CacheSpec cache;
    for (pugi::xml_node prop : element.children("prop")) {
      if (!is_io_property(prop))
        continue;
      located(prop, [&] {
        const std::string key = prop.attribute("id").value();
        const std::string value = prop.attribute("value").value();
        if (key == "io/cache-size")
          cache.size = storage_quantity(prop, key, value, owner, units::parse_size, true);
        else if (key == "io/memory-bw")
          cache.memory_bandwidth = storage_quantity(prop, key, value, owner, units::parse_bandwidth, false);
        else if (key == "io/read-ahead")
          cache.read_ahead = storage_quantity(prop, key, value, owner, units::parse_size, true);
        else if (key == "io/write-behind") {
          if (value != "yes" && value != "no")
            fail(owner + " " + key + ": '" + value + "' must be yes or no");
          cache.write_behind = value == "yes";
        } else
          fail(owner + ": unknown property '" + key +
               "' (a host takes io/cache-size, io/memory-bw, io/read-ahead, io/write-behind)");
      });
    }
    return cache;
  }

  // A zone's or cluster's io/ props: the file servers and the file system's defaults.
  void read_file_system(const pugi::xml_node& element, const std::string& owner)
  {
    StorageSpec& storage = builder_.storage();
    for (pugi::xml_node prop : element.children("prop")) {
      if (!is_io_property(prop))
        continue;
      located(prop, [&] {
        const std::string key = prop.attribute("id").value();
        const std::string value = prop.attribute("value").value();
        if (key == "io/servers") {
          if (!server_names_.empty())
            fail(owner + ": io/servers is already given at line " + std::to_string(server_line_));
          server_names_ = split_names(value);
          server_line_ = line(prop);
          if (server_names_.empty())
            fail(owner + " io/servers: no host named");
        } else if (key == "io/stripe-size")
          storage.stripe_size = storage_quantity(prop, key, value, owner, units::parse_size, false);
        else if (key == "io/stripe-count")
          storage.stripe_count = count(prop, "value", owner + " " + key, "");
        else if (key == "io/open-cost")
          storage.open_cost = storage_quantity(prop, key, value, owner, units::parse_time, true);
        else if (key == "io/close-cost")
          storage.close_cost = storage_quantity(prop, key, value, owner, units::parse_time, true);
        else if (key == "io/request-overhead")
          storage.request_overhead = storage_quantity(prop, key, value, owner, units::parse_time, true);
        else if (key == "io/request-size")
          storage.request_size = storage_quantity(prop, key, value, owner, units::parse_size, true);
        else
          fail(owner + ": unknown property '" + key +
               "' (a zone takes io/servers, io/stripe-size, io/stripe-count, io/open-cost, io/close-cost, "
               "io/request-overhead, io/request-size)");
      });
    }
  }

  static std::vector<std::string> split_names(const std::string& list)
  {
    std::vector<std::string> names;
    std::stringstream stream(list);
    std::string name;
    while (std::getline(stream, name, ',')) {
      name.erase(0, name.find_first_not_of(" \t"));
      name.erase(name.find_last_not_of(" \t") + 1);
      if (!name.empty())
        names.push_back(name);
    }
    return names;
  }

  // io/servers names hosts that may be declared after it: checked once the whole file is read.
  void resolve_file_servers()
  {
    StorageSpec& storage = builder_.storage();
    for (const std::string& name : server_names_) {
      auto point = builder_.find_point(name);
      if (!point || builder_.point(*point).kind != PointKind::Host)
        throw InputError(path_, server_line_, "io/servers: no host '" + name + "' in the platform");
      const HostId host = builder_.point(*point).host;
      if (!storage.disks.count(host))
        throw InputError(path_, server_line_, "io/servers: host '" + name + "' has no <disk>");
      for (const FileServerSpec& server : storage.servers) {
        if (server.host == host)
          throw InputError(path_, server_line_, "io/servers: host '" + name + "' is named twice");
      }
      auto cache = storage.caches.find(host);
      storage.servers.push_back({host, cache == storage.caches.end() ? CacheSpec{} : cache->second});
    }
    if (storage.stripe_count > 0 && !storage.servers.empty() &&
        storage.stripe_count > static_cast<int>(storage.servers.size()))
      throw InputError(path_, server_line_,
                       "io/stripe-count " + std::to_string(storage.stripe_count) + " exceeds the " +
                           std::to_string(storage.servers.size()) + " file servers of io/servers");
  }

  void read_link(const pugi::xml_node& element)
  {
    const std::string id = text(element, "id");
    const std::string owner = "link '" + id + "'";
    elements(element, {"prop"});
    const std::string policy =
        choice(element, "sharing_policy", owner, {"SHARED", "SPLITDUPLEX", "FULLDUPLEX", "FATPIPE", "WIFI"}, "SHARED");
    if (policy == "WIFI")
      fail(owner + ": sharing_policy WIFI is not supported by mpisim");
    const std::string bandwidth_text = text(element, "bandwidth");
    if (bandwidth_text.find_first_of(",;") != std::string::npos)
      fail(owner + ": bandwidth '" + bandwidth_text + "' is a list, which only WIFI links take");
    const double bandwidth = quantity(element, "bandwidth", owner, units::parse_bandwidth);
    const double latency = quantity(element, "latency", owner, units::parse_time, "0");
    for (const char* ignored : {"bandwidth_file", "latency_file", "state_file"}) {
      if (element.attribute(ignored))
        warn(element, owner + ": " + ignored + " ignored (mpisim does not vary resources over time)");
    }
    if (policy == "FULLDUPLEX")
      warn(element, owner + ": sharing_policy FULLDUPLEX is deprecated: use SPLITDUPLEX");
    if (policy == "SPLITDUPLEX" || policy == "FULLDUPLEX")
      builder_.add_split_duplex_link(id, bandwidth, latency);
    else
      builder_.add_link({id, bandwidth, latency, policy == "FATPIPE" ? LinkSharing::Fatpipe : LinkSharing::Shared});
  }

  PointId named_point(const pugi::xml_node& element, const char* attribute)
  {
    const std::string name = text(element, attribute);
    if (auto point = builder_.find_point(name))
      return *point;
    fail("<" + std::string(element.name()) + "> " + attribute + " '" + name +
         "' is not a host, router or zone declared before it");
  }

  RouteDeclaration read_route(const pugi::xml_node& element, bool may_be_symmetrical)
  {
    RouteDeclaration route;
    route.src = named_point(element, "src");
    route.dst = named_point(element, "dst");
    if (element.attribute("gw_src")) {
      route.gw_src = named_point(element, "gw_src");
      route.gw_dst = named_point(element, "gw_dst");
    }
    const std::string_view name = element.name();
    if (name == "ASroute" || name == "bypassASroute")
      warn(element, "<" + std::string(name) + "> is deprecated: use <" +
                        (name == "ASroute" ? "zoneRoute" : "bypassZoneRoute") + ">");
    if (may_be_symmetrical) {
      const std::string symmetrical =
          choice(element, "symmetrical", "<" + std::string(name) + ">", {"YES", "NO", "yes", "no"}, "YES");
      route.symmetrical = symmetrical == "YES" || symmetrical == "yes";
    } else {
      route.symmetrical = false; // bypass routes are one-way
    }
    for (pugi::xml_node hop : elements(element, {"link_ctn"}))
      located(hop, [&] { route.hops.push_back(read_hop(hop)); });
    return route;
  }

  RouteHop read_hop(const pugi::xml_node& element)
  {
    const std::string id = text(element, "id");
    const std::string direction =
        choice(element, "direction", "<link_ctn id='" + id + "'>", {"UP", "DOWN", "NONE"}, "NONE");
    if (direction == "NONE") {
      if (auto link = builder_.find_link(id))
        return {*link, *link};
      if (builder_.find_split_duplex_link(id))
        fail("link '" + id + "' is split-duplex: give direction=\"UP\" or \"DOWN\", or name '" + id + "_UP' or '" + id +
             "_DOWN'");
      fail("unknown link '" + id + "'");
    }
    auto pair = builder_.find_split_duplex_link(id);
    if (!pair)
      fail("direction=\"" + direction + "\" needs a SPLITDUPLEX link, and '" + id + "' is " +
           (builder_.find_link(id) ? "not one" : "not a declared link"));
    if (direction == "UP")
      return {pair->first, pair->second};
    return {pair->second, pair->first};
  }

  void read_cluster(const pugi::xml_node& element, OpenZone* parent)
  {
    ClusterSpec spec;
    spec.id = text(element, "id");
    const std::string owner = "cluster '" + spec.id + "'";
    spec.line = line(element);
    spec.prefix = text(element, "prefix");
    spec.suffix = text(element, "suffix");
    spec.radicals = parse_radicals(text(element, "radical"));
    spec.speeds = speeds(element, owner);
    spec.cores = count(element, "core", owner, "1");
    spec.bandwidth = quantity(element, "bw", owner, units::parse_bandwidth);
    spec.latency = quantity(element, "lat", owner, units::parse_time);
    const std::string sharing =
        choice(element, "sharing_policy", owner, {"SHARED", "SPLITDUPLEX", "FULLDUPLEX", "FATPIPE"}, "SPLITDUPLEX");
    if (sharing == "FULLDUPLEX")
      warn(element, owner + ": sharing_policy FULLDUPLEX is deprecated: use SPLITDUPLEX");
    spec.sharing = sharing == "SHARED"    ? ClusterSharing::Shared
                   : sharing == "FATPIPE" ? ClusterSharing::Fatpipe
                                          : ClusterSharing::SplitDuplex;
    spec.topology = text(element, "topology", "FLAT");
    spec.topo_parameters = text(element, "topo_parameters");
    if (!text(element, "bb_bw").empty())
      spec.backbone_bandwidth = quantity(element, "bb_bw", owner, units::parse_bandwidth);
    spec.backbone_latency = quantity(element, "bb_lat", owner, units::parse_time, "0s");
    spec.backbone_sharing = choice(element, "bb_sharing_policy", owner, {"SHARED", "FATPIPE"}, "SHARED") == "FATPIPE"
                                ? LinkSharing::Fatpipe
                                : LinkSharing::Shared;
    spec.router_id = text(element, "router_id");
    if (!text(element, "limiter_link").empty())
      spec.limiter_bandwidth = quantity(element, "limiter_link", owner, units::parse_bandwidth);
    if (!text(element, "loopback_bw").empty())
      spec.loopback_bandwidth = quantity(element, "loopback_bw", owner, units::parse_bandwidth);
    if (!text(element, "loopback_lat").empty())
      spec.loopback_latency = quantity(element, "loopback_lat", owner, units::parse_time);
    elements(element, {"prop"});
    spec.properties = properties(element);
    read_file_system(element, owner);
    build_cluster(spec, builder_, parent ? parent->zone : nullptr);
  }

  void require_cluster_zone(const pugi::xml_node& element, const OpenZone& zone) const
  {
    if (zone.star == nullptr)
      fail("<" + std::string(element.name()) + "> belongs in a zone with routing=\"Cluster\", and zone '" +
           zone.zone->name() + "' has routing=\"" + zone.zone->routing() + "\"");
  }

  void read_backbone(const pugi::xml_node& element, OpenZone& zone)
  {
    require_cluster_zone(element, zone);
    const std::string id = text(element, "id");
    if (zone.backbone != kNoLink)
      fail("zone '" + zone.zone->name() + "' already has a backbone, '" + builder_.link(zone.backbone).name + "'");
    const std::string owner = "backbone '" + id + "'";
    zone.backbone = builder_.add_link({id, quantity(element, "bandwidth", owner, units::parse_bandwidth),
                                       quantity(element, "latency", owner, units::parse_time), LinkSharing::Shared});
  }

  void read_host_link(const pugi::xml_node& element, OpenZone& zone)
  {
    require_cluster_zone(element, zone);
    zone.host_links.push_back({text(element, "id"), text(element, "up"), text(element, "down"), line(element)});
  }

  void read_cabinet(const pugi::xml_node& element, OpenZone& zone)
  {
    require_cluster_zone(element, zone);
    const std::string owner = "cabinet '" + text(element, "id") + "'";
    const double speed = quantity(element, "speed", owner, units::parse_speed);
    const double bandwidth = quantity(element, "bw", owner, units::parse_bandwidth);
    const double latency = quantity(element, "lat", owner, units::parse_time);
    for (int radical : parse_radicals(text(element, "radical"))) {
      const std::string host = text(element, "prefix") + std::to_string(radical) + text(element, "suffix");
      HostId id = builder_.add_host(*zone.zone, {host, speed, 1, {}});
      LinkId up = builder_.add_link({"link_" + host + "_UP", bandwidth, latency, LinkSharing::Shared});
      LinkId down = builder_.add_link({"link_" + host + "_DOWN", bandwidth, latency, LinkSharing::Shared});
      zone.cabinet_hosts.push_back({id, up, down});
    }
  }

  // At </zone> of a routing="Cluster" zone: each host goes up its link then the backbone, and
  // comes down the backbone then its link (SimGrid: sg_platf_zone_cluster_populate).
  void finish_cluster_zone(OpenZone& zone)
  {
    auto connect = [&](PointId host, LinkId up, LinkId down) {
      std::vector<LinkId> up_links{up};
      std::vector<LinkId> down_links{down};
      if (zone.backbone != kNoLink) {
        up_links.push_back(zone.backbone);
        down_links.insert(down_links.begin(), zone.backbone);
      }
      const uint32_t member = builder_.point(host).member;
      zone.star->set_up_links(member, std::move(up_links));
      zone.star->set_down_links(member, std::move(down_links));
    };
    for (const auto& host_link : zone.host_links) {
      try {
        auto host = builder_.find_point(host_link.host);
        if (!host || builder_.point(*host).kind != PointKind::Host || builder_.point(*host).englobing != zone.zone)
          fail("<host_link> id '" + host_link.host + "' is not a host of zone '" + zone.zone->name() + "'");
        auto up = builder_.find_link(host_link.up);
        if (!up)
          fail("<host_link> for '" + host_link.host + "': unknown up link '" + host_link.up + "'");
        auto down = builder_.find_link(host_link.down);
        if (!down)
          fail("<host_link> for '" + host_link.host + "': unknown down link '" + host_link.down + "'");
        connect(*host, *up, *down);
      } catch (const InputError& error) {
        throw InputError(path_, host_link.line, error.message());
      }
    }
    for (const auto& cabinet_host : zone.cabinet_hosts)
      connect(*builder_.find_point(builder_.host(cabinet_host.host).name), cabinet_host.up, cabinet_host.down);
  }

  std::string path_;
  std::string text_;
  LineIndex lines_;
  PlatformBuilder builder_;
  std::vector<std::string> server_names_; // io/servers, resolved at the end
  long server_line_ = 0;
};

} // namespace

std::unique_ptr<Platform> load_platform(const std::string& path)
{
  require_regular_file(path, "platform");
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw InputError(path, 0, std::string("cannot open the platform file: ") + std::strerror(errno));
  std::ostringstream content;
  content << file.rdbuf();
  return XmlLoader(path, content.str()).load();
}

std::unique_ptr<Platform> load_platform_text(const std::string& source, std::string text)
{
  return XmlLoader(source, std::move(text)).load();
}

} // namespace mpisim::platform
