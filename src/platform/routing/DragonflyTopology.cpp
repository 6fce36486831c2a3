// DRAGONFLY cluster: groups of chassis of routers (blades), each router serving a few hosts, with
// static minimal routing, as SimGrid 3.32 builds <cluster topology="DRAGONFLY">.
// Behaviour: docs/specifications/generated-topology-routing.md §5.
//
// topo_parameters "G,L_blue;C,L_black;R,L_green;N": G groups of C chassis of R routers of N hosts.
// All routers of a chassis are joined pairwise (green), routers of the same blade number across
// the chassis of a group pairwise (black), and each pair of groups once (blue); L_* parallel links
// are folded into one cable of L_* times the bandwidth. Each host has its own (local) cable to its
// router. Cable names carry a number counted over all the dragonflies of the platform and, for
// SPLITDUPLEX, the suffix _UP (from the lower number to the higher; host to router) or _DOWN.
#include "common/Errors.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/PlatformSize.hpp"
#include "platform/routing/Registry.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::platform {
namespace {

struct DragonflyShape {
  uint32_t groups = 1;
  uint32_t blue_links = 1; // between two groups
  uint32_t chassis_per_group = 1;
  uint32_t black_links = 1; // between two chassis of a group, per blade
  uint32_t routers_per_chassis = 1;
  uint32_t green_links = 1; // between two routers of a chassis
  uint32_t hosts_per_router = 1;

  uint64_t routers_per_group() const { return uint64_t(chassis_per_group) * routers_per_chassis; }
  uint64_t router_count() const { return saturating_product(groups, routers_per_group()); }
  uint64_t host_count() const { return saturating_product(router_count(), hosts_per_router); }
};

// Where a router sits. Its index counts blades fastest, then chassis, then groups.
struct RouterPosition {
  uint64_t group = 0;
  uint64_t chassis = 0; // within the group
  uint64_t blade = 0;   // within the chassis

  static RouterPosition of(uint64_t router, const DragonflyShape& shape)
  {
    return {router / shape.routers_per_group(), router / shape.routers_per_chassis % shape.chassis_per_group,
            router % shape.routers_per_chassis};
  }
  uint64_t index(const DragonflyShape& shape) const
  {
    return (group * shape.chassis_per_group + chassis) * shape.routers_per_chassis + blade;
  }
  bool operator==(const RouterPosition&) const = default;
};

std::vector<uint32_t> parse_pair(std::string_view part, const std::string& what)
{
  std::vector<uint32_t> numbers = parse_count_list(part, "dragonfly " + what);
  if (numbers.size() != 2)
    throw InputError("", 0, "dragonfly " + what + " '" + std::string(part) + "' must be two numbers");
  return numbers;
}

DragonflyShape parse_dragonfly_shape(std::string_view text)
{
  const std::vector<std::string_view> parts = split(text, ';');
  if (parts.size() != 4)
    throw InputError("", 0,
                     "dragonfly parameters '" + std::string(text) +
                         "' must have 4 parts separated by ';': groups,links;chassis,links;routers,links;nodes");
  const std::vector<uint32_t> groups = parse_pair(parts[0], "groups and blue links");
  const std::vector<uint32_t> chassis = parse_pair(parts[1], "chassis and black links");
  const std::vector<uint32_t> routers = parse_pair(parts[2], "routers and green links");
  const std::vector<uint32_t> hosts = parse_count_list(parts[3], "dragonfly hosts per router");
  if (hosts.size() != 1)
    throw InputError("", 0, "dragonfly hosts per router '" + std::string(parts[3]) + "' must be one number");
  return {groups[0], groups[1], chassis[0], chassis[1], routers[0], routers[1], hosts[0]};
}

// Index of the unordered pair {low, high}, low < high, among the pairs of `count` things.
uint64_t pair_index(uint64_t low, uint64_t high)
{
  return high * (high - 1) / 2 + low;
}
uint64_t pair_count(uint64_t count)
{
  return count * (count - 1) / 2;
}

struct DuplexCable {
  LinkId up = kNoLink; // from the lower-numbered end (the host, for a local cable)
  LinkId down = kNoLink;

  LinkId leaving(bool from_lower_end) const { return from_lower_end ? up : down; }
};

// SimGrid attaches the blue cable between groups a < b to router (a, 0, b) and router (b, 0, a),
// numbered here as if blade b existed; with too many groups the number leaves the platform.
struct BlueEnds {
  uint64_t low_router;
  uint64_t high_router;
};
BlueEnds blue_ends(const DragonflyShape& shape, uint64_t low_group, uint64_t high_group)
{
  return {low_group * shape.routers_per_group() + high_group, high_group * shape.routers_per_group() + low_group};
}

class DragonflyRouting final : public Zone {
public:
  DragonflyRouting(const std::string& name, const DragonflyShape& shape)
      : Zone(name, "DRAGONFLY cluster"), shape_(shape),
        green_(shape.groups * uint64_t(shape.chassis_per_group) * pair_count(shape.routers_per_chassis)),
        black_(shape.groups * pair_count(shape.chassis_per_group) * shape.routers_per_chassis),
        router_limiters_(shape.router_count(), kNoLink), blue_(shape.router_count(), kNoLink)
  {
  }

  const DragonflyShape& shape() const { return shape_; }

  void add_host(const ClusterLeaf& leaf) { hosts_.push_back(leaf); }
  void set_router_limiter(uint64_t router, LinkId limiter) { router_limiters_[router] = limiter; }
  void add_local_cable(DuplexCable cable) { local_.push_back(cable); } // by host position
  DuplexCable& green(uint64_t group, uint64_t chassis, uint64_t low_blade, uint64_t high_blade)
  {
    return green_[green_slot(group, chassis, low_blade, high_blade)];
  }
  DuplexCable& black(uint64_t group, uint64_t low_chassis, uint64_t high_chassis, uint64_t blade)
  {
    return black_[black_slot(group, low_chassis, high_chassis, blade)];
  }
  // Each router keeps one blue link, the way out of it.
  void set_blue_link(uint64_t router, LinkId link) { blue_[router] = link; }

  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext&, std::vector<LinkId>& links) const override
  {
    if (src == dst && hosts_[src].loopback != kNoLink) {
      links.push_back(hosts_[src].loopback);
      return {};
    }
    const RouterPosition source = router_of(src);
    const RouterPosition destination = router_of(dst);
    append(hosts_[src].limiter, links);
    links.push_back(local_[src].up);
    if (source != destination)
      cross_routers(source, destination, links);
    append(router_limiters_[destination.index(shape_)], links);
    links.push_back(local_[dst].down);
    append(hosts_[dst].limiter, links);
    return {};
  }

private:
  RouterPosition router_of(uint32_t host) const { return RouterPosition::of(host / shape_.hosts_per_router, shape_); }

  // SimGrid's minimal routing, kept with its quirks: once in the right group (at chassis 0, blade
  // = the source's group), it takes the green cable to the destination's blade then believes
  // itself in chassis 0, whichever chassis it was in, before taking the black cable.
  void cross_routers(const RouterPosition& source, const RouterPosition& destination, std::vector<LinkId>& links) const
  {
    RouterPosition here = source;
    if (destination.group != source.group) {
      if (here.blade != destination.group) {
        if (destination.group >= shape_.routers_per_chassis)
          throw InputError("", 0,
                           "dragonfly '" + name() +
                               "': SimGrid's minimal routing has no link for this route (it needs at least as many "
                               "routers per chassis as groups)");
        leave(here, green_link(here, destination.group), links);
        here.blade = destination.group;
      }
      if (here.chassis != 0) {
        leave(here, black_link(here, 0), links);
        here.chassis = 0;
      }
      // The blue link comes before the limiter of the router it leaves. This router, (source group,
      // 0, destination group), is an end of the blue cable between the two groups: it has one.
      links.push_back(blue_[here.index(shape_)]);
      append(router_limiters_[here.index(shape_)], links);
      // Where SimGrid lands: router (destination group, 0, source group), numbered as in blue_ends.
      here = RouterPosition::of(destination.group * shape_.routers_per_group() + source.group, shape_);
    }
    if (destination.blade != here.blade) {
      leave(here, green_link(here, destination.blade), links);
      here = {destination.group, 0, destination.blade};
    }
    if (destination.chassis != here.chassis)
      leave(here, black_link(here, destination.chassis), links);
  }

  uint64_t green_slot(uint64_t group, uint64_t chassis, uint64_t low_blade, uint64_t high_blade) const
  {
    return (group * shape_.chassis_per_group + chassis) * pair_count(shape_.routers_per_chassis) +
           pair_index(low_blade, high_blade);
  }
  uint64_t black_slot(uint64_t group, uint64_t low_chassis, uint64_t high_chassis, uint64_t blade) const
  {
    return (group * pair_count(shape_.chassis_per_group) + pair_index(low_chassis, high_chassis)) *
               shape_.routers_per_chassis +
           blade;
  }

  // The green cable from `here` to blade `blade` of its chassis, in that direction.
  LinkId green_link(const RouterPosition& here, uint64_t blade) const
  {
    const DuplexCable& cable =
        green_[green_slot(here.group, here.chassis, std::min(here.blade, blade), std::max(here.blade, blade))];
    return cable.leaving(here.blade < blade);
  }

  // The black cable from `here` to chassis `chassis` of its group, on its blade, in that direction.
  LinkId black_link(const RouterPosition& here, uint64_t chassis) const
  {
    const DuplexCable& cable =
        black_[black_slot(here.group, std::min(here.chassis, chassis), std::max(here.chassis, chassis), here.blade)];
    return cable.leaving(here.chassis < chassis);
  }

  // A router is left through its limiter, then the cable.
  void leave(const RouterPosition& router, LinkId cable, std::vector<LinkId>& links) const
  {
    append(router_limiters_[router.index(shape_)], links);
    links.push_back(cable);
  }

  static void append(LinkId link, std::vector<LinkId>& links)
  {
    if (link != kNoLink)
      links.push_back(link);
  }

  DragonflyShape shape_;
  std::vector<ClusterLeaf> hosts_;
  std::vector<DuplexCable> local_; // by host position
  std::vector<DuplexCable> green_; // by chassis, then pair of blades
  std::vector<DuplexCable> black_; // by group, pair of chassis, then blade
  std::vector<LinkId> router_limiters_;
  std::vector<LinkId> blue_; // by router
};

size_t dragonfly_host_count(std::string_view topo_parameters)
{
  return parse_dragonfly_shape(topo_parameters).host_count();
}

// Every blue cable must land on a router of the platform (see blue_ends). The highest router
// number is the high end of the last pair of groups: G-1 groups of routers, plus G-2.
void check_blue_cables_fit(const ClusterSpec& spec, const DragonflyShape& shape)
{
  if (shape.groups >= 2 && blue_ends(shape, shape.groups - 2, shape.groups - 1).high_router >= shape.router_count())
    throw InputError("", 0,
                     "dragonfly '" + spec.id + "': " + std::to_string(shape.groups) +
                         " groups need at least as many routers per group (SimGrid attaches the link to group b to "
                         "router b)");
}

void add_local_cables(const ClusterSpec& spec, PlatformBuilder& builder, DragonflyRouting& zone, uint64_t& number)
{
  const DragonflyShape& shape = zone.shape();
  for (uint64_t router = 0; router < shape.router_count(); router++) {
    for (uint32_t node = 0; node < shape.hosts_per_router; node++) {
      const auto cable = add_cluster_link(spec, builder,
                                          "local_link_from_router_" + std::to_string(router) + "_to_node_" +
                                              std::to_string(node) + "_" + std::to_string(number++));
      zone.add_local_cable({cable.first, cable.second});
    }
  }
}

void add_green_cables(const ClusterSpec& spec, PlatformBuilder& builder, DragonflyRouting& zone, uint64_t& number)
{
  const DragonflyShape& shape = zone.shape();
  for (uint64_t group = 0; group < shape.groups; group++) {
    for (uint64_t chassis = 0; chassis < shape.chassis_per_group; chassis++) {
      for (uint64_t low = 0; low < shape.routers_per_chassis; low++) {
        for (uint64_t high = low + 1; high < shape.routers_per_chassis; high++) {
          const auto cable = add_cluster_link(spec, builder,
                                              "green_link_in_chassis_" + std::to_string(chassis) + "_between_routers_" +
                                                  std::to_string(low) + "_and_" + std::to_string(high) + "_" +
                                                  std::to_string(number++),
                                              shape.green_links);
          zone.green(group, chassis, low, high) = {cable.first, cable.second};
        }
      }
    }
  }
}

void add_black_cables(const ClusterSpec& spec, PlatformBuilder& builder, DragonflyRouting& zone, uint64_t& number)
{
  const DragonflyShape& shape = zone.shape();
  for (uint64_t group = 0; group < shape.groups; group++) {
    for (uint64_t low = 0; low < shape.chassis_per_group; low++) {
      for (uint64_t high = low + 1; high < shape.chassis_per_group; high++) {
        for (uint64_t blade = 0; blade < shape.routers_per_chassis; blade++) {
          const auto cable = add_cluster_link(spec, builder,
                                              "black_link_in_group_" + std::to_string(group) + "_between_chassis_" +
                                                  std::to_string(low) + "_and_" + std::to_string(high) + "_blade_" +
                                                  std::to_string(blade) + "_" + std::to_string(number++),
                                              shape.black_links);
          zone.black(group, low, high, blade) = {cable.first, cable.second};
        }
      }
    }
  }
}

void add_blue_cables(const ClusterSpec& spec, PlatformBuilder& builder, DragonflyRouting& zone, uint64_t& number)
{
  const DragonflyShape& shape = zone.shape();
  for (uint64_t low = 0; low < shape.groups; low++) {
    for (uint64_t high = low + 1; high < shape.groups; high++) {
      const BlueEnds ends = blue_ends(shape, low, high);
      const auto cable =
          add_cluster_link(spec, builder,
                           "blue_link_between_group_" + std::to_string(low) + "_and_" + std::to_string(high) +
                               "_routers_" + std::to_string(ends.low_router) + "_and_" +
                               std::to_string(ends.high_router) + "_" + std::to_string(number++),
                           shape.blue_links);
      // A router that ends two blue cables keeps the later one.
      zone.set_blue_link(ends.low_router, cable.first);
      zone.set_blue_link(ends.high_router, cable.second);
    }
  }
}

// Hosts, routers and the links of the cables (local, green, black, blue): what the size check weighs before the zone
// sizes its tables of green and black cables, which grow as the square of the routers per chassis and chassis per
// group (`dragonfly:1,1;1,1;30000,1;1`: 30 000 hosts, 450 million green cables).
uint64_t dragonfly_elements(const ClusterSpec& spec, const DragonflyShape& shape)
{
  const uint64_t green = saturating_product(saturating_product(shape.groups, shape.chassis_per_group),
                                            pair_count(shape.routers_per_chassis));
  const uint64_t black = saturating_product(saturating_product(shape.groups, pair_count(shape.chassis_per_group)),
                                            shape.routers_per_chassis);
  const uint64_t blue = pair_count(shape.groups);
  const uint64_t cables = saturating_sum(saturating_sum(shape.host_count(), green), saturating_sum(black, blue));
  return saturating_sum(saturating_sum(shape.host_count(), shape.router_count()),
                        saturating_product(cables, links_per_cable(spec)));
}

void build_dragonfly(const ClusterSpec& spec, PlatformBuilder& builder, Zone* parent)
{
  const DragonflyShape shape = parse_dragonfly_shape(spec.topo_parameters);
  check_hierarchical_cluster(spec, builder, shape.host_count(), dragonfly_elements(spec, shape));
  check_blue_cables_fit(spec, shape);
  auto& zone = static_cast<DragonflyRouting&>(
      builder.add_zone(parent, std::make_unique<DragonflyRouting>(spec.id, shape), spec.line));

  for (uint64_t position = 0; position < shape.host_count(); position++)
    zone.add_host(add_cluster_leaf(spec, builder, zone, position));
  if (spec.limiter_bandwidth > 0) {
    // Router limiters are numbered down from 2H-1, after the hosts' 0..H-1.
    for (uint64_t router = 0; router < shape.router_count(); router++)
      zone.set_router_limiter(router, add_cluster_limiter(spec, builder, 2 * shape.host_count() - 1 - router));
  }
  uint64_t& number = builder.counter("dragonfly.link");
  add_local_cables(spec, builder, zone, number);
  add_green_cables(spec, builder, zone, number);
  add_black_cables(spec, builder, zone, number);
  add_blue_cables(spec, builder, zone, number);
}

} // namespace

TopologyEntry dragonfly_topology_entry()
{
  return {"DRAGONFLY",
          "dragonfly",
          "dragonfly of groups, chassis and routers, static minimal routing",
          "Kim, Dally, Scott and Abts, Technology-driven, highly-scalable dragonfly topology (ISCA 2008); "
          "SimGrid 3.32 <cluster topology=\"DRAGONFLY\">",
          dragonfly_host_count,
          build_dragonfly};
}

} // namespace mpisim::platform
