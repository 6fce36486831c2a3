// Full routing: every route is written in the file (<route> / <zoneRoute>), looked up in a table.
// Members without a route to themselves get SimGrid's global loopback when the zone has no
// sub-zones (SimGrid 3.32 FullZone: the loopback is added in "base" routing mode only).
#include "common/Errors.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/routing/Registry.hpp"

#include <unordered_map>

namespace mpisim::platform {
namespace {

class FullRouting final : public Zone {
public:
  explicit FullRouting(const std::string& name) : Zone(name, "Full") {}

  void add_route(const RouteDeclaration& route, const RouteContext& context) override
  {
    check_routed_declaration(route, context);
    const uint32_t src = context.point(route.src).member;
    const uint32_t dst = context.point(route.dst).member;
    store(src, dst, {route.forward_links(), route.gw_src, route.gw_dst}, route, context,
          " (routes are symmetrical by default)");
    if (route.symmetrical && src != dst)
      store(dst, src, {route.backward_links(), route.gw_dst, route.gw_src}, route, context,
            ": the reverse of a symmetrical route is already declared (add symmetrical=\"NO\")");
  }

  void seal(PlatformBuilder& builder) override
  {
    if (has_children())
      return;
    for (uint32_t member = 0; member < members().size(); member++) {
      if (!routes_.count(key(member, member)))
        routes_[key(member, member)] = StoredRoute{{builder.global_loopback()}, kNoPoint, kNoPoint};
    }
  }

  std::optional<std::pair<uint32_t, uint32_t>> find_missing_route(const std::vector<bool>& needed) const override
  {
    for (uint32_t src = 0; src < needed.size(); src++)
      for (uint32_t dst = 0; dst < needed.size(); dst++)
        if (needed[src] && needed[dst] && src != dst && !routes_.count(key(src, dst)))
          return std::make_pair(src, dst);
    return std::nullopt;
  }

  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext& context,
                       std::vector<LinkId>& links) const override
  {
    auto found = routes_.find(key(src, dst));
    if (found == routes_.end())
      throw InputError("", 0,
                       "zone '" + name() + "' (Full) declares no route from '" + context.point(members()[src]).name +
                           "' to '" + context.point(members()[dst]).name + "'");
    links.insert(links.end(), found->second.links.begin(), found->second.links.end());
    return {found->second.gw_src, found->second.gw_dst};
  }

private:
  static uint64_t key(uint32_t src, uint32_t dst) { return (uint64_t{src} << 32) | dst; }

  void store(uint32_t src, uint32_t dst, StoredRoute&& stored, const RouteDeclaration& route,
             const RouteContext& context, const char* duplicate_hint)
  {
    auto [where, inserted] = routes_.try_emplace(key(src, dst), std::move(stored));
    if (!inserted)
      throw InputError("", 0,
                       "duplicate route from '" + context.point(members()[src]).name + "' to '" +
                           context.point(members()[dst]).name + "' in zone '" + name() + "'" + duplicate_hint);
  }

  std::unordered_map<uint64_t, StoredRoute> routes_;
};

} // namespace

ZoneRoutingEntry full_routing_entry()
{
  return {"Full", "every route listed in the file, looked up in a table",
          "SimGrid 3.32 FullZone (docs: Platform_routing.rst)",
          [](const std::string& name) { return std::make_unique<FullRouting>(name); }};
}

} // namespace mpisim::platform
