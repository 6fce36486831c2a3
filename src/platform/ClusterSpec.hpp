// What a <cluster> element says, once parsed: the common input of every cluster topology, filled
// by the XML loader and by generate_platform alike so that both build the same thing.
#pragma once

#include "platform/Platform.hpp"
#include "platform/Zone.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::platform {

class PlatformBuilder;

// sharing_policy of the cluster's own links. SimGrid 3.32 creates plain SHARED links for FATPIPE.
enum class ClusterSharing : uint8_t { SplitDuplex, Shared, Fatpipe };

struct ClusterSpec {
  std::string id;
  std::string prefix;
  std::string suffix;
  std::vector<int> radicals; // host i is prefix + radicals[i] + suffix
  // Generated specs only: names replacing that one for the last positions (the file servers of "io_servers=").
  std::vector<std::string> last_host_names;
  std::vector<double> speeds; // one per power state; hosts run at the first
  int cores = 1;
  double bandwidth = 0;
  double latency = 0;
  ClusterSharing sharing = ClusterSharing::SplitDuplex;
  std::string topology = "FLAT";
  std::string topo_parameters;
  double backbone_bandwidth = 0; // no backbone unless bandwidth or latency is positive
  double backbone_latency = 0;
  LinkSharing backbone_sharing = LinkSharing::Shared;
  std::string router_id;         // FLAT only; default prefix + id + "_router" + suffix
  double limiter_bandwidth = 0;  // 0: no limiter links
  double loopback_bandwidth = 0; // no loopback links unless bandwidth or latency is positive
  double loopback_latency = 0;
  std::map<std::string, std::string> properties; // given to every host
  long line = 0;                                 // of the element, for the zone

  bool has_loopback() const { return loopback_bandwidth > 0 || loopback_latency > 0; }
  bool has_backbone() const { return backbone_bandwidth > 0 || backbone_latency > 0; }
  std::string host_name(size_t position) const;
};

// Builds the cluster as a zone under `parent` (the root when null), with the topology's builder.
void build_cluster(const ClusterSpec& spec, PlatformBuilder& builder, Zone* parent);

// "a;b;;c" -> {"a", "b", "", "c"}: the pieces between separators, empty ones included.
std::vector<std::string_view> split(std::string_view text, char separator);

// "0-3,7" -> {0, 1, 2, 3, 7}. Throws InputError("", 0, ...) naming a malformed part.
std::vector<int> parse_radicals(std::string_view text);

// "4,4,2" -> {4, 4, 2}: positive integers separated by commas, as topo_parameters use them.
// Throws InputError("", 0, ...) naming `what` and the bad item.
std::vector<uint32_t> parse_count_list(std::string_view list, const std::string& what);

// --- pieces shared by the hierarchical topologies (torus, fat tree, dragonfly) ---

// One host of a hierarchical cluster with its optional private links, created and named as
// SimGrid 3.32 does: the host prefix<radical>suffix, then the loopback <id>_link_<radical>_loopback
// (FATPIPE), then the limiter <id>_link_<position>_limiter (SHARED; note: position, not radical).
struct ClusterLeaf {
  HostId host = 0;
  LinkId loopback = kNoLink;
  LinkId limiter = kNoLink;
};
ClusterLeaf add_cluster_leaf(const ClusterSpec& spec, PlatformBuilder& builder, Zone& zone, size_t position);

// Limiter of a switch or router numbered `id`: <cluster id>_link_<id>_limiter.
LinkId add_cluster_limiter(const ClusterSpec& spec, PlatformBuilder& builder, uint64_t id);

// A topology link: <name>_UP and <name>_DOWN for SPLITDUPLEX clusters, otherwise one SHARED link
// used both ways (SimGrid ignores FATPIPE here). Returns {up, down}. links_per_cable() says how many.
std::pair<LinkId, LinkId> add_cluster_link(const ClusterSpec& spec, PlatformBuilder& builder, const std::string& name,
                                           double bandwidth_factor = 1.0);
uint64_t links_per_cable(const ClusterSpec& spec);

// Checks common to the hierarchical topologies: enough radicals for `host_count` hosts (extra
// radicals are ignored, with a warning), positive bandwidth, a size that fits in memory
// (platform/PlatformSize.hpp; `elements`: hosts and links, when the topology knows them).
void check_hierarchical_cluster(const ClusterSpec& spec, PlatformBuilder& builder, size_t host_count,
                                uint64_t elements = 0);

} // namespace mpisim::platform
