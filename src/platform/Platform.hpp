// The platform: hosts, links, and how messages are routed between hosts.
//
// A Platform is a plain description (no simulation state): the resources layer turns hosts into
// CPUs and links into network constraints, and asks route() which links a message crosses.
// Platforms come from SimGrid platform files (load_platform, format v4/v4.1) or from a short
// spec such as "torus:8x8x8,bw=10Gbps" (generate_platform); see docs/platforms.md.
//
// Routes agree with SimGrid 3.32 link for link, including its naming of generated links and its
// loopback rules; tests compare them with routes dumped by SimGrid itself.
#pragma once

#include "platform/NameIndex.hpp"
#include "platform/Storage.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::platform {

using HostId = uint32_t;
using LinkId = uint32_t;

// SPLITDUPLEX links do not appear here: they are expanded at load time into two Shared links
// named <id>_UP and <id>_DOWN, one per direction.
enum class LinkSharing : uint8_t { Shared, Fatpipe };

struct LinkSpec {
  std::string name;
  double bandwidth = 0; // byte/s
  double latency = 0;   // s
  LinkSharing sharing = LinkSharing::Shared;
};

struct HostSpec {
  std::string name;
  double speed = 0; // flop/s of one core, in the host's initial power state
  int cores = 1;
  std::map<std::string, std::string> properties;
};

class Zone;
class ZoneTree;

class Platform {
public:
  Platform();
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  // Hosts in declaration order. A <cluster> declares its hosts in the order of its radicals
  // ("3-5,1" gives 3, 4, 5, 1); torus, fat-tree and dragonfly hosts follow their rank order.
  const std::vector<HostSpec>& hosts() const { return hosts_; }
  // Links in creation order (the global loopback "__loopback__" appears only if some route uses it).
  const std::vector<LinkSpec>& links() const { return links_; }

  std::optional<HostId> find_host(std::string_view name) const;
  std::optional<LinkId> find_link(std::string_view name) const;

  // Replaces `links` with the links crossed from src to dst, in order, and sets `latency` to the
  // sum of their latencies. src == dst gives the loopback route. Throws InputError naming both
  // hosts when the platform defines no route between them; its file and line are those of the
  // zone that lacks the route (loading already warned about it). Cost: proportional to the route
  // length for regular topologies (no per-pair table); routed zones use their own tables. Safe to
  // call from several threads at once.
  void route(HostId src, HostId dst, std::vector<LinkId>& links, double& latency) const;

  // The zones holding `host`, from the root zone down to the one that declares it: the hierarchy of networks the host
  // sits in, for models that see the platform that way (xsim).
  std::vector<const Zone*> zones_of(HostId host) const;
  // The zone that declares `host` (the last of zones_of; null for a host outside every zone).
  const Zone* zone_of(HostId host) const;

  // The <config> properties (first definition of a key wins, as in SimGrid).
  const std::map<std::string, std::string>& config() const { return config_; }

  // Disks, file servers and file system defaults (platform/Storage.hpp): for generated platforms, empty unless the
  // spec gives storage options (io_servers=, disk=).
  const StorageSpec& storage() const { return storage_; }

  // Non-fatal remarks made while loading ("file:line: message"): deprecated spellings,
  // unit-less values, ignored attributes. Front ends decide whether to show them.
  const std::vector<std::string>& warnings() const { return warnings_; }

private:
  friend class PlatformBuilder;

  std::string source_; // file it was read from, "" when generated
  std::vector<HostSpec> hosts_;
  std::vector<LinkSpec> links_;
  NameIndex host_names_; // find_host: ids by the names in hosts_
  NameIndex link_names_; // find_link: ids by the names in links_
  std::string_view host_name(uint32_t id) const { return hosts_[id].name; }
  std::string_view link_name(uint32_t id) const { return links_[id].name; }
  std::map<std::string, std::string> config_;
  StorageSpec storage_;
  std::vector<std::string> warnings_;
  std::unique_ptr<ZoneTree> zones_;
};

// Reads a SimGrid platform file. Any problem throws InputError(path, line, message).
std::unique_ptr<Platform> load_platform(const std::string& path);
// The same from the text of a platform file; `source` names it in messages.
std::unique_ptr<Platform> load_platform_text(const std::string& source, std::string text);

// Builds a platform from a one-line spec, e.g. "cluster:16,bw=10Gbps" or "fattree:2;4,4;1,2;1,2".
// The result is the same as a file holding the equivalent <cluster> element. Bad specs throw
// InputError naming the bad part.
std::unique_ptr<Platform> generate_platform(std::string_view spec);

} // namespace mpisim::platform
