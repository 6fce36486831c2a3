// Assembles a Platform: the one place that creates hosts, routers, links and zones, and checks
// that names are unique. Used by the XML loader, the spec generator and the cluster topologies.
//
// Errors are thrown as InputError("", line-or-0, message): the caller that knows the file adds it.
#pragma once

#include "platform/NameIndex.hpp"
#include "platform/Platform.hpp"
#include "platform/Zone.hpp"
#include "platform/ZoneTree.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mpisim::platform {

class PlatformBuilder {
public:
  PlatformBuilder();
  ~PlatformBuilder();

  // The file being read ("" for generated platforms): route errors and warnings name it.
  void set_source(const std::string& path);

  // A zone under `parent`, or the root zone when parent is null (only one root).
  Zone& add_zone(Zone* parent, std::unique_ptr<Zone> zone, long line = 0);
  Zone* root() const { return tree_->root(); }

  HostId add_host(Zone& zone, HostSpec host);
  PointId add_router(Zone& zone, const std::string& name);

  LinkId add_link(LinkSpec link);
  // A SPLITDUPLEX link: two Shared links <name>_UP and <name>_DOWN, remembered under <name> so that
  // routes can name it with a direction.
  std::pair<LinkId, LinkId> add_split_duplex_link(const std::string& name, double bandwidth, double latency);
  std::optional<LinkId> find_link(std::string_view name) const;
  std::optional<std::pair<LinkId, LinkId>> find_split_duplex_link(std::string_view name) const;
  const LinkSpec& link(LinkId id) const { return platform_->links_[id]; }
  // SimGrid's global loopback "__loopback__" (FATPIPE, network/loopback-bw [10GBps],
  // network/loopback-lat [0]), created the first time a zone needs it.
  LinkId global_loopback();

  std::optional<PointId> find_point(std::string_view name) const { return tree_->find_point(name); }
  const NetPoint& point(PointId id) const { return tree_->point(id); }
  const RouteContext& context() const { return *tree_; }
  const HostSpec& host(HostId id) const { return platform_->hosts_[id]; }

  StorageSpec& storage() { return platform_->storage_; }

  // Returns false (and keeps the first value) when the key is already set.
  bool add_config(const std::string& key, const std::string& value);
  void warn(std::string message) { platform_->warnings_.push_back(std::move(message)); }
  // A warning located in the source file at `line` (no location for generated platforms).
  void warn_at(long line, const std::string& message);
  // Counters that SimGrid keeps per process (fat-tree and dragonfly link numbering): one platform
  // is one SimGrid process, so they live here.
  uint64_t& counter(const std::string& name) { return counters_[name]; }

  // Seals every zone, warns about routed zones that leave hosts unconnected (SimGrid accepts
  // them and only fails when such a route is used), and hands the platform over.
  std::unique_ptr<Platform> finish();

private:
  PointId add_point(const std::string& name, PointKind kind, Zone* zone);
  void seal(Zone& zone);
  size_t check_routes(const Zone& zone); // returns the number of hosts inside `zone`

  std::unique_ptr<Platform> platform_;
  ZoneTree* tree_ = nullptr;
  // The up and down links of each split-duplex link, found by its name: the up link's without "_UP" (no copy of
  // the name, no tree node per link: a cluster of 16 384 hosts declares as many).
  std::vector<std::pair<LinkId, LinkId>> split_duplex_links_;
  NameIndex split_duplex_names_;
  std::string_view split_duplex_name(uint32_t index) const;
  std::optional<LinkId> global_loopback_;
  std::map<std::string, uint64_t> counters_;
  void count_element(); // one more host, router, zone or link: refused past platform_element_limit()
  uint64_t elements_ = 0;
  uint64_t element_limit_;
};

} // namespace mpisim::platform
