#include "platform/routing/StarRouting.hpp"

#include "common/Errors.hpp"
#include "platform/routing/Registry.hpp"

#include <algorithm>

namespace mpisim::platform {

const StarRouting::MemberLinks& StarRouting::member_links(uint32_t member) const
{
  static const MemberLinks none;
  return member < members_links_.size() ? members_links_[member] : none;
}

StarRouting::MemberLinks& StarRouting::links_of(uint32_t member)
{
  if (members_links_.size() <= member)
    members_links_.resize(member + 1);
  return members_links_[member];
}

void StarRouting::set_up_links(uint32_t member, std::vector<LinkId> links, PointId gateway)
{
  MemberLinks& own = links_of(member);
  own.up = std::move(links);
  own.gateway = gateway;
}

void StarRouting::set_down_links(uint32_t member, std::vector<LinkId> links, PointId gateway)
{
  MemberLinks& own = links_of(member);
  own.down = std::move(links);
  own.gateway = gateway;
}

void StarRouting::set_loopback(uint32_t member, std::vector<LinkId> links)
{
  MemberLinks& own = links_of(member);
  own.loopback = std::move(links);
  own.has_loopback = true;
}

void StarRouting::add_route(const RouteDeclaration& route, const RouteContext& context)
{
  if (route.is_zone_route() || route.src != route.dst)
    throw InputError("", 0,
                     describe(route, context) + ": zone '" + name() +
                         "' (routing Cluster) builds its routes from <host_link>, <cabinet> and <backbone>; it only "
                         "accepts routes from a host to itself (loopback)");
  const NetPoint& end = context.point(route.src);
  if (end.englobing != this)
    throw InputError("", 0, describe(route, context) + ": '" + end.name + "' is not in zone '" + name() + "'");
  if (route.hops.empty())
    throw InputError("", 0, describe(route, context) + " is empty");
  set_loopback(end.member, route.forward_links());
}

Gateways StarRouting::local_route(uint32_t src, uint32_t dst, const RouteContext& context,
                                  std::vector<LinkId>& links) const
{
  const MemberLinks& from = member_links(src);
  const MemberLinks& to = member_links(dst);
  // SimGrid adds each link once per local route: a host reaching itself without loopback crosses
  // the shared backbone (or SHARED private link) only once.
  const size_t start = links.size();
  auto add_once = [&](const std::vector<LinkId>& more) {
    for (LinkId link : more) {
      bool seen = false;
      for (size_t i = start; i < links.size() && !seen; i++)
        seen = links[i] == link;
      if (!seen)
        links.push_back(link);
    }
  };
  if (src == dst && from.has_loopback) {
    add_once(from.loopback);
    return {};
  }
  add_once(from.up);
  add_once(to.down);
  return {from.gateway, to.gateway};
}

bool StarRouting::uniform_route_between(const std::vector<uint32_t>& hosts, const std::vector<LinkSpec>& links,
                                        std::vector<LinkId>& route) const
{
  auto crossed = [&](uint32_t member, std::vector<LinkId>& list) { // up links then down links
    const MemberLinks& own = member_links(member);
    list.assign(own.up.begin(), own.up.end());
    list.insert(list.end(), own.down.begin(), own.down.end());
    return own.up.size();
  };
  auto first_position = [](const std::vector<LinkId>& list, size_t position) {
    return static_cast<size_t>(std::find(list.begin(), list.end(), list[position]) - list.begin());
  };
  std::vector<LinkId> reference;
  std::vector<LinkId> list;
  const size_t up = crossed(hosts.front(), reference);
  std::vector<bool> common(reference.size(), true); // every host has the reference's link there
  for (uint32_t host : hosts) {
    if (crossed(host, list) != up || list.size() != reference.size())
      return false;
    for (size_t position = 0; position < list.size(); position++)
      common[position] = common[position] && list[position] == reference[position];
  }
  // The links of one host's own (first positions) and the common ones: each must be met once.
  std::vector<LinkId> met;
  for (size_t position = 0; position < reference.size(); position++)
    if (common[position] && first_position(reference, position) == position)
      met.push_back(reference[position]);
  for (uint32_t host : hosts) {
    crossed(host, list);
    for (size_t position = 0; position < list.size(); position++) {
      const LinkSpec& link = links[list[position]];
      const LinkSpec& alike = links[reference[position]];
      if (link.latency != alike.latency || link.bandwidth != alike.bandwidth)
        return false;
      if (common[position])
        continue;
      const size_t first = first_position(list, position);
      if (first != first_position(reference, position) || common[first])
        return false;
      if (first == position)
        met.push_back(list[position]);
    }
  }
  std::sort(met.begin(), met.end());
  if (std::adjacent_find(met.begin(), met.end()) != met.end())
    return false;
  route.clear(); // the route between the first two, as local_route gives it (each link once)
  crossed(hosts[0], reference);
  crossed(hosts[1], list);
  for (size_t position = 0; position < list.size(); position++) {
    const LinkId link = position < up ? reference[position] : list[position];
    if (std::find(route.begin(), route.end(), link) == route.end())
      route.push_back(link);
  }
  return true;
}

ZoneRoutingEntry star_routing_entry()
{
  return {"Cluster", "star: each host's up links, then the destination's down links",
          "SimGrid 3.32 StarZone (<zone routing=\"Cluster\"> with <cabinet>, <backbone>, <host_link>)",
          [](const std::string& name) { return std::make_unique<StarRouting>(name, "Cluster"); }};
}

} // namespace mpisim::platform
