// Floyd routing: routes listed in the file are graph edges weighted by their number of links;
// shortest paths between all members are computed once (Floyd-Warshall) when the platform is
// sealed. Ties are broken exactly as SimGrid 3.32 FloydZone does (intermediate member c, then
// source a, then destination b, in member order; a path is replaced only by a strictly shorter
// one), so equal-length alternatives resolve to the same route.
#include "common/Errors.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/routing/Registry.hpp"

#include <unordered_map>

namespace mpisim::platform {
namespace {

class FloydRouting final : public Zone {
public:
  explicit FloydRouting(const std::string& name) : Zone(name, "Floyd") {}

  void add_route(const RouteDeclaration& route, const RouteContext& context) override
  {
    check_routed_declaration(route, context);
    const uint32_t src = context.point(route.src).member;
    const uint32_t dst = context.point(route.dst).member;
    store(src, dst, {route.forward_links(), route.gw_src, route.gw_dst}, context);
    // Unlike Full, SimGrid's Floyd also mirrors a route from a member to itself, which then
    // collides with the route itself: such routes need symmetrical="NO".
    if (route.symmetrical)
      store(dst, src, {route.backward_links(), route.gw_dst, route.gw_src}, context);
  }

  void seal(PlatformBuilder& builder) override
  {
    size_ = members().size();
    cost_.assign(size_ * size_, kInfinite);
    predecessor_.assign(size_ * size_, kNone);
    for (const auto& [key, route] : edges_) {
      const size_t src = key >> 32;
      const size_t dst = key & 0xffffffffU;
      cost_[src * size_ + dst] = static_cast<uint32_t>(route.links.size());
      predecessor_[src * size_ + dst] = static_cast<int32_t>(src);
    }
    if (!has_children()) {
      for (uint32_t member = 0; member < size_; member++) {
        if (edges_.count(key(member, member)))
          continue;
        edges_[key(member, member)] = StoredRoute{{builder.global_loopback()}, kNoPoint, kNoPoint};
        cost_[member * size_ + member] = 1;
        predecessor_[member * size_ + member] = static_cast<int32_t>(member);
      }
    }
    for (size_t c = 0; c < size_; c++) {
      for (size_t a = 0; a < size_; a++) {
        const uint32_t a_to_c = cost_[a * size_ + c];
        if (a_to_c == kInfinite)
          continue;
        for (size_t b = 0; b < size_; b++) {
          const uint32_t c_to_b = cost_[c * size_ + b];
          uint32_t& a_to_b = cost_[a * size_ + b];
          if (c_to_b != kInfinite && (a_to_b == kInfinite || a_to_c + c_to_b < a_to_b)) {
            a_to_b = a_to_c + c_to_b;
            predecessor_[a * size_ + b] = predecessor_[c * size_ + b];
          }
        }
      }
    }
  }

  std::optional<std::pair<uint32_t, uint32_t>> find_missing_route(const std::vector<bool>& needed) const override
  {
    for (uint32_t src = 0; src < needed.size(); src++)
      for (uint32_t dst = 0; dst < needed.size(); dst++)
        if (needed[src] && needed[dst] && src != dst && predecessor_[src * size_ + dst] == kNone)
          return std::make_pair(src, dst);
    return std::nullopt;
  }

  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext& context,
                       std::vector<LinkId>& links) const override
  {
    // Walk the predecessors back from dst, then replay the edges forwards.
    std::vector<const StoredRoute*> path;
    size_t current = dst;
    do {
      const int32_t previous = predecessor_[src * size_ + current];
      if (previous == kNone)
        throw InputError("", 0,
                         "zone '" + name() + "' (Floyd) has no path from '" + context.point(members()[src]).name +
                             "' to '" + context.point(members()[dst]).name + "'");
      path.push_back(&edges_.at(key(static_cast<uint32_t>(previous), static_cast<uint32_t>(current))));
      current = static_cast<size_t>(previous);
    } while (current != src);

    Gateways gateways;
    if (has_children()) {
      gateways.src = path.back()->gw_src;
      gateways.dst = path.front()->gw_dst;
    }
    PointId previous_exit = kNoPoint;
    for (auto edge = path.rbegin(); edge != path.rend(); ++edge) {
      // Consecutive zone routes may leave and enter the middle zone at different gateways.
      if (has_children() && previous_exit != kNoPoint && previous_exit != (*edge)->gw_src)
        context.append_route(previous_exit, (*edge)->gw_src, links);
      links.insert(links.end(), (*edge)->links.begin(), (*edge)->links.end());
      previous_exit = (*edge)->gw_dst;
    }
    return gateways;
  }

private:
  static constexpr uint32_t kInfinite = std::numeric_limits<uint32_t>::max();
  static constexpr int32_t kNone = -1;
  static uint64_t key(uint32_t src, uint32_t dst) { return (uint64_t{src} << 32) | dst; }

  void store(uint32_t src, uint32_t dst, StoredRoute&& stored, const RouteContext& context)
  {
    auto [where, inserted] = edges_.try_emplace(key(src, dst), std::move(stored));
    if (!inserted)
      throw InputError("", 0,
                       "duplicate route from '" + context.point(members()[src]).name + "' to '" +
                           context.point(members()[dst]).name + "' in zone '" + name() +
                           "' (routes are symmetrical by default: a route and its reverse are declared once)");
  }

  std::unordered_map<uint64_t, StoredRoute> edges_;
  size_t size_ = 0;
  std::vector<uint32_t> cost_;       // size_ x size_, number of links on the best path
  std::vector<int32_t> predecessor_; // size_ x size_, member before the destination on that path
};

} // namespace

ZoneRoutingEntry floyd_routing_entry()
{
  return {"Floyd", "shortest paths (fewest links) over the listed routes, computed once for all pairs",
          "Floyd-Warshall algorithm, as in SimGrid 3.32 FloydZone",
          [](const std::string& name) { return std::make_unique<FloydRouting>(name); }};
}

} // namespace mpisim::platform
