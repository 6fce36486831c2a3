// FLAT cluster: hosts on private links around a star, optionally through a backbone, as SimGrid
// 3.32 builds <cluster topology="FLAT"> (sg_platf_new_cluster_flat). For host N (its radical):
//   <id>_link_N           private link; split into <id>_link_N_UP / _DOWN for SPLITDUPLEX
//   <id>_link_N_limiter   SHARED, when limiter_link is set: crossed both ways
//   <id>_link_N_loopback  FATPIPE, when loopback_bw or loopback_lat is set: the route to itself
//   <id>_backbone         one link for all, when bb_bw or bb_lat is set
// Route A -> B: limiter(A) link_A_UP backbone link_B_DOWN limiter(B), each link once; a host
// without loopback reaches itself the same way (link_A_UP backbone link_A_DOWN). The cluster also
// has a router, <prefix><id>_router<suffix> unless router_id says otherwise, reached with no link
// from the centre: it is the gateway other zones name.
#include "common/Errors.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/routing/Registry.hpp"
#include "platform/routing/StarRouting.hpp"

namespace mpisim::platform {
namespace {

void build_flat_cluster(const ClusterSpec& spec, PlatformBuilder& builder, Zone* parent)
{
  auto& zone = static_cast<StarRouting&>(
      builder.add_zone(parent, std::make_unique<StarRouting>(spec.id, "FLAT cluster"), spec.line));
  if (spec.sharing == ClusterSharing::Fatpipe)
    builder.warn_at(spec.line, "cluster '" + spec.id +
                                   "': sharing_policy FATPIPE gives SHARED private links (as in SimGrid 3.32, which "
                                   "ignores it here)");

  LinkId backbone = kNoLink;
  if (spec.has_backbone())
    backbone = builder.add_link(
        {spec.id + "_backbone", spec.backbone_bandwidth, spec.backbone_latency, spec.backbone_sharing});

  for (size_t position = 0; position < spec.radicals.size(); position++) {
    builder.add_host(zone, {spec.host_name(position), spec.speeds.front(), spec.cores, spec.properties});
    const auto index = static_cast<uint32_t>(zone.members().size() - 1); // the host just added
    const std::string link_name = spec.id + "_link_" + std::to_string(spec.radicals[position]);
    if (spec.has_loopback()) {
      LinkId loopback = builder.add_link(
          {link_name + "_loopback", spec.loopback_bandwidth, spec.loopback_latency, LinkSharing::Fatpipe});
      zone.set_loopback(index, {loopback});
    }
    LinkId limiter = kNoLink;
    if (spec.limiter_bandwidth > 0)
      limiter = builder.add_link({link_name + "_limiter", spec.limiter_bandwidth, 0, LinkSharing::Shared});
    std::pair<LinkId, LinkId> link;
    if (spec.sharing == ClusterSharing::SplitDuplex)
      link = builder.add_split_duplex_link(link_name, spec.bandwidth, spec.latency);
    else
      link.first = link.second = builder.add_link({link_name, spec.bandwidth, spec.latency, LinkSharing::Shared});

    std::vector<LinkId> up;
    std::vector<LinkId> down;
    if (limiter != kNoLink)
      up.push_back(limiter);
    up.push_back(link.first);
    if (backbone != kNoLink) {
      up.push_back(backbone);
      down.push_back(backbone);
    }
    down.push_back(link.second);
    if (limiter != kNoLink)
      down.push_back(limiter);
    zone.set_up_links(index, std::move(up));
    zone.set_down_links(index, std::move(down));
  }

  const std::string router = spec.router_id.empty() ? spec.prefix + spec.id + "_router" + spec.suffix : spec.router_id;
  builder.add_router(zone, router);
}

} // namespace

TopologyEntry flat_cluster_topology_entry()
{
  return {"FLAT",
          "cluster",
          "hosts on private links around a switch or backbone (star)",
          "SimGrid 3.32 <cluster topology=\"FLAT\"> (StarZone)",
          [](std::string_view) -> size_t { return 0; },
          build_flat_cluster};
}

} // namespace mpisim::platform
