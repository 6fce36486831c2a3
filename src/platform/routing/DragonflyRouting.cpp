// Dragonfly cluster (topo_parameters "G,Lblue;C,Lblack;R,Lgreen;N": G groups joined by blue
// links, C chassis per group joined by black links, R routers (blades) per chassis joined by green
// links, N hosts per router; L parallel links are folded into one link of L times the bandwidth),
// with SimGrid 3.32's static minimal routing (DragonflyZone).
//
// Host r sits on router (group, chassis, blade) = digits of r / N. Links, named as SimGrid names
// them with one number k counting every link of the platform's dragonflies:
//   local_link_from_router_<i>_to_node_<n>_<k>                        router i to its n-th host
//   green_link_in_chassis_<c>_between_routers_<a>_and_<b>_<k>         all-to-all in a chassis
//   black_link_in_group_<g>_between_chassis_<a>_and_<b>_blade_<r>_<k> same blade, all chassis
//   blue_link_between_group_<a>_and_<b>_routers_<i>_and_<j>_<k>       group a's router b to group
//                                                                      b's router a (chassis 0)
// Route: host up to its router; towards another group: green hop to the blade numbered like the
// target group, black hop to chassis 0, blue hop; then green hop to the target blade (landing on
// chassis 0 of the target group, as SimGrid computes it), black hop to the target chassis; router
// down to the host. Router limiters are crossed on each hop a router takes part in. SimGrid
// needs R >= G for routes between groups: other shapes throw when such a route is asked for.
#include "common/Errors.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/routing/Registry.hpp"

namespace mpisim::platform {
namespace {

struct DragonflyParameters {
  uint32_t groups = 0, blue = 0, chassis = 0, black = 0, routers = 0, green = 0, nodes = 0;
};

DragonflyParameters parse_dragonfly(std::string_view text)
{
  const std::vector<std::string_view> parts = split(text, ';');
  if (parts.size() != 4)
    throw InputError("", 0,
                     "dragonfly parameters '" + std::string(text) +
                         "' must have 4 parts separated by ';': groups,links;chassis,links;routers,links;nodes");
  const char* what[] = {"groups and blue links", "chassis and black links", "routers and green links"};
  uint32_t values[6] = {};
  for (int i = 0; i < 3; i++) {
    std::vector<uint32_t> pair = parse_count_list(parts[i], std::string("dragonfly ") + what[i]);
    if (pair.size() != 2)
      throw InputError("", 0,
                       "dragonfly " + std::string(what[i]) + " '" + std::string(parts[i]) + "' must be two numbers");
    values[2 * i]     = pair[0];
    values[2 * i + 1] = pair[1];
  }
  std::vector<uint32_t> nodes = parse_count_list(parts[3], "dragonfly hosts per router");
  if (nodes.size() != 1)
    throw InputError("", 0, "dragonfly hosts per router '" + std::string(parts[3]) + "' must be one number");
  return {values[0], values[1], values[2], values[3], values[4], values[5], nodes[0]};
}

size_t dragonfly_host_count(std::string_view text)
{
  DragonflyParameters p = parse_dragonfly(text);
  return size_t{p.groups} * p.chassis * p.routers * p.nodes;
}

class DragonflyRouting final : public Zone {
public:
  DragonflyRouting(const std::string& name, DragonflyParameters parameters, bool split_duplex)
      : Zone(name, "DRAGONFLY cluster"), p_(parameters), links_per_cable_(split_duplex ? 2 : 1)
  {
  }

  void build(const ClusterSpec& spec, PlatformBuilder& builder, size_t hosts)
  {
    for (size_t i = 0; i < hosts; i++) {
      ClusterLeaf leaf = add_cluster_leaf(spec, builder, *this, i);
      host_loopback_.push_back(leaf.loopback);
      host_limiter_.push_back(leaf.limiter);
    }
    uint64_t limiter_id = 2 * hosts;
    for (uint32_t g = 0; g < p_.groups; g++)
      for (uint32_t c = 0; c < p_.chassis; c++)
        for (uint32_t b = 0; b < p_.routers; b++) {
          Router router;
          router.group   = g;
          router.chassis = c;
          router.blade   = b;
          if (spec.limiter_bandwidth > 0)
            router.limiter = add_cluster_limiter(spec, builder, --limiter_id);
          routers_.push_back(std::move(router));
        }

    uint64_t& number = builder.counter("dragonfly.link");
    auto cable       = [&](const std::string& name, uint32_t parallel) {
      return add_cluster_link(spec, builder, name + "_" + std::to_string(number++), parallel);
    };
    for (size_t i = 0; i < routers_.size(); i++) {
      Router& router = routers_[i];
      router.local.resize(size_t{links_per_cable_} * p_.nodes, kNoLink);
      router.green.resize(p_.routers, kNoLink);
      router.black.resize(p_.chassis, kNoLink);
      for (uint32_t n = 0; n < p_.nodes; n++) {
        auto [up, down] = cable("local_link_from_router_" + std::to_string(i) + "_to_node_" + std::to_string(n), 1);
        router.local[n * links_per_cable_] = up;
        if (links_per_cable_ == 2)
          router.local[n * links_per_cable_ + 1] = down;
      }
    }
    for (uint32_t i = 0; i < p_.groups * p_.chassis; i++)
      for (uint32_t a = 0; a < p_.routers; a++)
        for (uint32_t b = a + 1; b < p_.routers; b++) {
          auto [up, down] = cable("green_link_in_chassis_" + std::to_string(i % p_.chassis) + "_between_routers_" +
                                      std::to_string(a) + "_and_" + std::to_string(b),
                                  p_.green);
          routers_[i * p_.routers + a].green[b] = up;
          routers_[i * p_.routers + b].green[a] = down;
        }
    for (uint32_t g = 0; g < p_.groups; g++)
      for (uint32_t a = 0; a < p_.chassis; a++)
        for (uint32_t b = a + 1; b < p_.chassis; b++)
          for (uint32_t r = 0; r < p_.routers; r++) {
            auto [up, down] = cable("black_link_in_group_" + std::to_string(g) + "_between_chassis_" +
                                        std::to_string(a) + "_and_" + std::to_string(b) + "_blade_" + std::to_string(r),
                                    p_.black);
            routers_[index(g, a, r)].black[b] = up;
            routers_[index(g, b, r)].black[a] = down;
          }
    for (uint32_t a = 0; a < p_.groups; a++)
      for (uint32_t b = a + 1; b < p_.groups; b++) {
        const size_t router_a = size_t{a} * p_.routers * p_.chassis + b;
        const size_t router_b = size_t{b} * p_.routers * p_.chassis + a;
        if (router_a >= routers_.size() || router_b >= routers_.size())
          throw InputError("", 0,
                           "dragonfly '" + name() + "': " + std::to_string(p_.groups) +
                               " groups need at least as many routers per group (SimGrid attaches the link to group "
                               "b to router b)");
        auto [up, down] = cable("blue_link_between_group_" + std::to_string(a) + "_and_" + std::to_string(b) +
                                    "_routers_" + std::to_string(router_a) + "_and_" + std::to_string(router_b),
                                p_.blue);
        routers_[router_a].blue = up;
        routers_[router_b].blue = down;
      }
  }

  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext&, std::vector<LinkId>& links) const override
  {
    if (src == dst && host_loopback_[src] != kNoLink) {
      links.push_back(host_loopback_[src]);
      return {};
    }
    const Coordinates from = coordinates(src);
    const Coordinates to   = coordinates(dst);
    const size_t source    = index(from.group, from.chassis, from.blade);
    const size_t target    = index(to.group, to.chassis, to.blade);
    size_t current         = source;
    auto cross             = [&](LinkId link) {
      if (link == kNoLink)
        throw InputError("", 0,
                         "dragonfly '" + name() + "': SimGrid's minimal routing has no link for this route (it needs "
                                                  "at least as many routers per chassis as groups)");
      links.push_back(link);
    };
    auto limiter = [&](size_t router) {
      if (routers_[router].limiter != kNoLink)
        links.push_back(routers_[router].limiter);
    };
    auto entry = [](const std::vector<LinkId>& list, size_t i) { return i < list.size() ? list[i] : kNoLink; };

    if (host_limiter_[src] != kNoLink)
      links.push_back(host_limiter_[src]);
    cross(routers_[source].local[from.node * links_per_cable_]);
    if (target != source) {
      if (routers_[target].group != routers_[current].group) {
        if (routers_[current].blade != to.group) {
          limiter(current);
          cross(entry(routers_[current].green, to.group));
          current = index(from.group, from.chassis, 0) + to.group;
        }
        if (routers_[current].chassis != 0) {
          limiter(current);
          cross(routers_[current].black[0]);
          current = index(from.group, 0, 0) + to.group;
        }
        cross(routers_[current].blue);
        limiter(current);
        current = index(to.group, 0, 0) + from.group;
      }
      if (routers_[target].blade != routers_[current].blade) {
        limiter(current);
        cross(entry(routers_[current].green, to.blade));
        current = index(to.group, 0, 0) + to.blade;
      }
      if (routers_[target].chassis != routers_[current].chassis) {
        limiter(current);
        cross(entry(routers_[current].black, to.chassis));
      }
    }
    limiter(target);
    cross(routers_[target].local[to.node * links_per_cable_ + links_per_cable_ - 1]);
    if (host_limiter_[dst] != kNoLink)
      links.push_back(host_limiter_[dst]);
    return {};
  }

private:
  struct Router {
    uint32_t group = 0, chassis = 0, blade = 0;
    LinkId limiter = kNoLink;
    std::vector<LinkId> local; // per host: up (and down when split-duplex)
    std::vector<LinkId> green; // by blade in the chassis
    std::vector<LinkId> black; // by chassis in the group
    LinkId blue = kNoLink;
  };
  struct Coordinates {
    size_t group, chassis, blade, node;
  };

  size_t index(size_t group, size_t chassis, size_t blade) const
  {
    return (group * p_.chassis + chassis) * p_.routers + blade;
  }

  Coordinates coordinates(size_t rank) const
  {
    const size_t per_group   = size_t{p_.chassis} * p_.routers * p_.nodes;
    const size_t per_chassis = size_t{p_.routers} * p_.nodes;
    return {rank / per_group, rank % per_group / per_chassis, rank % per_chassis / p_.nodes, rank % p_.nodes};
  }

  DragonflyParameters p_;
  uint32_t links_per_cable_;
  std::vector<LinkId> host_loopback_;
  std::vector<LinkId> host_limiter_;
  std::vector<Router> routers_;
};

void build_dragonfly(const ClusterSpec& spec, PlatformBuilder& builder, Zone* parent)
{
  DragonflyParameters parameters = parse_dragonfly(spec.topo_parameters);
  const size_t hosts             = dragonfly_host_count(spec.topo_parameters);
  check_hierarchical_cluster(spec, builder, hosts);
  auto& zone = static_cast<DragonflyRouting&>(builder.add_zone(
      parent,
      std::make_unique<DragonflyRouting>(spec.id, parameters, spec.sharing == ClusterSharing::SplitDuplex),
      spec.line));
  zone.build(spec, builder, hosts);
}

} // namespace

TopologyEntry dragonfly_topology_entry()
{
  return {"DRAGONFLY", "dragonfly",
          "dragonfly (groups, chassis, routers) with static minimal routing",
          "Kim et al., Technology-Driven, Highly-Scalable Dragonfly Topology (ISCA 2008); SimGrid 3.32 DragonflyZone",
          dragonfly_host_count, build_dragonfly};
}

} // namespace mpisim::platform
