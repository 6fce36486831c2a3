#include "platform/Zone.hpp"

#include "common/Errors.hpp"

namespace mpisim::platform {

std::vector<LinkId> RouteDeclaration::forward_links() const
{
  std::vector<LinkId> links;
  links.reserve(hops.size());
  for (const auto& hop : hops)
    links.push_back(hop.forward);
  return links;
}

std::vector<LinkId> RouteDeclaration::backward_links() const
{
  std::vector<LinkId> links;
  links.reserve(hops.size());
  for (auto hop = hops.rbegin(); hop != hops.rend(); ++hop)
    links.push_back(hop->backward);
  return links;
}

Zone::Zone(std::string name, std::string routing) : name_(std::move(name)), routing_(std::move(routing)) {}

Zone::~Zone() = default;

void Zone::attach(Zone* parent, PointId own_point)
{
  parent_ = parent;
  point_ = own_point;
  depth_ = parent ? parent->depth() + 1 : 0;
}

uint32_t Zone::add_member(PointId point, PointKind kind)
{
  members_.push_back(point);
  host_members_.push_back(kind == PointKind::Host);
  return static_cast<uint32_t>(members_.size() - 1);
}

bool Zone::uniform_host_route(const std::vector<LinkSpec>& links, std::vector<LinkId>& route) const
{
  route.clear();
  if (has_bypass_routes())
    return false;
  std::vector<uint32_t> hosts;
  for (uint32_t member = 0; member < members_.size(); member++)
    if (host_members_[member])
      hosts.push_back(member);
  if (hosts.size() < 2 || not uniform_route_between(hosts, links, route)) {
    route.clear();
    return false;
  }
  return true;
}

Zone& Zone::add_child(std::unique_ptr<Zone> child)
{
  children_.push_back(std::move(child));
  return *children_.back();
}

void Zone::add_route(const RouteDeclaration& route, const RouteContext& context)
{
  throw InputError("", 0,
                   "zone '" + name_ + "' (routing " + routing_ +
                       ") does not accept explicit routes: " + describe(route, context));
}

std::string Zone::describe(const RouteDeclaration& route, const RouteContext& context) const
{
  auto name = [&](PointId id) { return "'" + context.point(id).name + "'"; };
  if (route.is_zone_route())
    return "zone route from " + name(route.src) + " (gateway " + name(route.gw_src) + ") to " + name(route.dst) +
           " (gateway " + name(route.gw_dst) + ")";
  return "route from " + name(route.src) + " to " + name(route.dst);
}

void Zone::check_routed_declaration(const RouteDeclaration& route, const RouteContext& context) const
{
  const NetPoint& src = context.point(route.src);
  const NetPoint& dst = context.point(route.dst);
  for (const NetPoint* end : {&src, &dst}) {
    if (end->englobing != this)
      throw InputError(
          "", 0, describe(route, context) + ": '" + end->name + "' is not declared directly in zone '" + name_ + "'");
  }
  if (route.hops.empty())
    throw InputError("", 0, describe(route, context) + " is empty");
  if (!route.is_zone_route()) {
    for (const NetPoint* end : {&src, &dst}) {
      if (end->kind == PointKind::Zone)
        throw InputError("", 0,
                         describe(route, context) + ": '" + end->name +
                             "' is a zone; routes between zones are <zoneRoute> elements with gateways");
    }
    return;
  }
  const NetPoint& gw_src = context.point(route.gw_src);
  const NetPoint& gw_dst = context.point(route.gw_dst);
  for (const NetPoint* end : {&src, &dst}) {
    if (end->kind != PointKind::Zone)
      throw InputError("", 0,
                       describe(route, context) + ": '" + end->name +
                           "' is not a zone; routes between hosts or routers are <route> elements");
  }
  for (const NetPoint* gateway : {&gw_src, &gw_dst}) {
    if (gateway->kind == PointKind::Zone)
      throw InputError("", 0,
                       describe(route, context) + ": gateway '" + gateway->name + "' must be a host or a router");
  }
  if (route.gw_src == route.gw_dst)
    throw InputError("", 0, describe(route, context) + ": both gateways are '" + gw_src.name + "'");
  if (!zone_contains(*src.zone, gw_src))
    throw InputError(
        "", 0, describe(route, context) + ": gateway '" + gw_src.name + "' is not inside zone '" + src.name + "'");
  if (!zone_contains(*dst.zone, gw_dst))
    throw InputError(
        "", 0, describe(route, context) + ": gateway '" + gw_dst.name + "' is not inside zone '" + dst.name + "'");
}

void Zone::add_bypass_route(const RouteDeclaration& route, const RouteContext& context)
{
  if (route.hops.empty())
    throw InputError("", 0, "bypass " + describe(route, context) + " is empty");
  if (route.is_zone_route()) {
    // Not checked by SimGrid, but a gateway outside its zone makes route assembly loop forever.
    const NetPoint& src = context.point(route.src);
    const NetPoint& dst = context.point(route.dst);
    if (src.kind != PointKind::Zone || !zone_contains(*src.zone, context.point(route.gw_src)))
      throw InputError("", 0,
                       "bypass " + describe(route, context) + ": '" + src.name + "' must be a zone containing '" +
                           context.point(route.gw_src).name + "'");
    if (dst.kind != PointKind::Zone || !zone_contains(*dst.zone, context.point(route.gw_dst)))
      throw InputError("", 0,
                       "bypass " + describe(route, context) + ": '" + dst.name + "' must be a zone containing '" +
                           context.point(route.gw_dst).name + "'");
  }
  auto [where, inserted] = bypass_routes_.try_emplace({route.src, route.dst});
  if (!inserted)
    throw InputError("", 0, "bypass " + describe(route, context) + " is declared twice");
  where->second = StoredRoute{route.forward_links(), route.gw_src, route.gw_dst};
}

const StoredRoute* Zone::find_bypass_route(PointId src, PointId dst) const
{
  auto found = bypass_routes_.find({src, dst});
  return found == bypass_routes_.end() ? nullptr : &found->second;
}

bool zone_contains(const Zone& zone, const NetPoint& point)
{
  if (point.kind == PointKind::Zone && point.zone == &zone)
    return true;
  for (const Zone* current = point.englobing; current != nullptr; current = current->parent()) {
    if (current == &zone)
      return true;
  }
  return false;
}

} // namespace mpisim::platform
