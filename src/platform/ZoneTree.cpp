#include "platform/ZoneTree.hpp"

#include "common/Errors.hpp"

#include <algorithm>

namespace mpisim::platform {

std::optional<PointId> ZoneTree::find_point(std::string_view name) const
{
  return point_names_.find(name, [this](uint32_t id) { return point_name(id); });
}

PointId ZoneTree::add_point(NetPoint point)
{
  auto id = static_cast<PointId>(points_.size());
  points_.push_back(std::move(point));
  point_names_.add(id, points_.back().name, [this](uint32_t id) { return point_name(id); });
  return id;
}

void ZoneTree::set_host_point(HostId host, PointId point)
{
  if (host_points_.size() <= host)
    host_points_.resize(host + 1, kNoPoint);
  host_points_[host] = point;
}

namespace {

// The zones from `zone` up to the root, `zone` first.
std::vector<const Zone*> path_to_root(const Zone* zone)
{
  std::vector<const Zone*> path;
  for (; zone != nullptr; zone = zone->parent())
    path.push_back(zone);
  return path;
}

} // namespace

bool ZoneTree::append_bypass_route(const Zone& common, PointId src, PointId dst, std::vector<LinkId>& links) const
{
  const NetPoint& src_point = points_[src];
  const NetPoint& dst_point = points_[dst];
  if (src_point.englobing == &common && dst_point.englobing == &common) {
    const StoredRoute* bypass = common.find_bypass_route(src, dst);
    if (bypass == nullptr)
      return false;
    links.insert(links.end(), bypass->links.begin(), bypass->links.end());
    return true;
  }

  // Zones on both sides below the common ancestor, innermost first. SimGrid looks for a bypass
  // between them by increasing distance from the points: (i, max) and (max, i) for i < max, then
  // (max, max).
  std::vector<const Zone*> src_path = path_to_root(src_point.englobing);
  std::vector<const Zone*> dst_path = path_to_root(dst_point.englobing);
  while (src_path.size() > 1 && dst_path.size() > 1 && src_path.back() == dst_path.back()) {
    src_path.pop_back();
    dst_path.pop_back();
  }
  const StoredRoute* bypass = nullptr;
  PointId key_src = kNoPoint;
  PointId key_dst = kNoPoint;
  auto lookup = [&](size_t i, size_t j) {
    if (i >= src_path.size() || j >= dst_path.size())
      return false;
    bypass = common.find_bypass_route(src_path[i]->point(), dst_path[j]->point());
    if (bypass == nullptr)
      return false;
    key_src = src_path[i]->point();
    key_dst = dst_path[j]->point();
    return true;
  };
  const size_t longest = std::max(src_path.size(), dst_path.size());
  for (size_t max = 0; max < longest; max++) {
    for (size_t i = 0; i < max; i++) {
      if (lookup(i, max) || lookup(max, i))
        break;
    }
    if (bypass != nullptr || lookup(max, max))
      break;
  }
  if (bypass == nullptr)
    return false;
  if (src != key_src) {
    if (bypass->gw_src == kNoPoint)
      throw InputError("", 0, "bypass route from '" + points_[key_src].name + "' has no gateway");
    append_route(src, bypass->gw_src, links);
  }
  links.insert(links.end(), bypass->links.begin(), bypass->links.end());
  if (dst != key_dst) {
    if (bypass->gw_dst == kNoPoint)
      throw InputError("", 0, "bypass route to '" + points_[key_dst].name + "' has no gateway");
    append_route(bypass->gw_dst, dst, links);
  }
  return true;
}

Gateways ZoneTree::local_route(const Zone& zone, uint32_t src, uint32_t dst, std::vector<LinkId>& links) const
{
  try {
    return zone.local_route(src, dst, *this, links);
  } catch (const InputError& error) {
    if (error.line() > 0)
      throw;
    throw InputError("", zone.line(), error.message()); // the zone that lacks the route
  }
}

void ZoneTree::append_route(PointId src, PointId dst, std::vector<LinkId>& links) const
{
  const NetPoint& src_point = points_[src];
  const NetPoint& dst_point = points_[dst];

  // Common ancestor, and its children on the way to each point (the ancestor itself when the
  // point is its direct member).
  const Zone* src_side = src_point.englobing;
  const Zone* dst_side = dst_point.englobing;
  const Zone* src_child = nullptr;
  const Zone* dst_child = nullptr;
  while (src_side->depth() > dst_side->depth()) {
    src_child = src_side;
    src_side = src_side->parent();
  }
  while (dst_side->depth() > src_side->depth()) {
    dst_child = dst_side;
    dst_side = dst_side->parent();
  }
  while (src_side != dst_side) {
    src_child = src_side;
    src_side = src_side->parent();
    dst_child = dst_side;
    dst_side = dst_side->parent();
  }
  const Zone& common = *src_side;

  if (common.has_bypass_routes() && append_bypass_route(common, src, dst, links))
    return;

  if (src_child == nullptr || dst_child == nullptr) {
    if (src_child != nullptr || dst_child != nullptr)
      throw InputError("", 0,
                       "'" + src_point.name + "' and '" + dst_point.name + "' are not at the same level of zone '" +
                           common.name() + "'");
    local_route(common, src_point.member, dst_point.member, links);
    return;
  }

  std::vector<LinkId> between;
  Gateways gateways =
      local_route(common, points_[src_child->point()].member, points_[dst_child->point()].member, between);
  if (gateways.src == kNoPoint || gateways.dst == kNoPoint)
    throw InputError("", common.line(),
                     "zone '" + common.name() + "' gives no gateways between its zones '" + src_child->name() +
                         "' and '" + dst_child->name() + "'");
  if (src != gateways.src)
    append_route(src, gateways.src, links);
  links.insert(links.end(), between.begin(), between.end());
  if (gateways.dst != dst)
    append_route(gateways.dst, dst, links);
}

} // namespace mpisim::platform
