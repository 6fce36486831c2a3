// Routing zones: the internal structure behind Platform::route().
//
// As in SimGrid, a platform is a tree of zones. A leaf zone holds hosts and routers, an inner zone
// holds sub-zones; all of them are "points" (NetPoint) of their enclosing zone. Each zone answers
// routes between two of its own members (local_route); routes between points of different zones
// are assembled by ZoneTree from the local routes of their common ancestor and the gateways it
// names (see ZoneTree.hpp). Each routing algorithm is one subclass, in routing/.
#pragma once

#include "platform/Platform.hpp"

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::platform {

class PlatformBuilder;
class Zone;

using PointId = uint32_t;
inline constexpr PointId kNoPoint = std::numeric_limits<PointId>::max();
inline constexpr LinkId kNoLink = std::numeric_limits<LinkId>::max();

enum class PointKind : uint8_t { Host, Router, Zone };

// A named end of a route: a host, a router, or a zone seen from its parent.
struct NetPoint {
  std::string name;
  PointKind kind = PointKind::Host;
  Zone* englobing = nullptr; // the zone holding this point (null for the root zone's own point)
  uint32_t member = 0;       // index among englobing->members(): what routing tables are indexed by
  HostId host = 0;           // kind == Host
  Zone* zone = nullptr;      // kind == Zone: the zone itself
};

// One <link_ctn> of a declared route: the link crossed in the declared direction, and the one
// crossed when the route is used backwards (the other half of a split-duplex link given with a
// direction; the same link otherwise).
struct RouteHop {
  LinkId forward = kNoLink;
  LinkId backward = kNoLink;
};

// A <route>, <zoneRoute> or bypass route, with names already resolved.
struct RouteDeclaration {
  PointId src = kNoPoint;
  PointId dst = kNoPoint;
  PointId gw_src = kNoPoint; // set for zone routes only
  PointId gw_dst = kNoPoint;
  std::vector<RouteHop> hops;
  bool symmetrical = true;

  bool is_zone_route() const { return gw_src != kNoPoint || gw_dst != kNoPoint; }
  std::vector<LinkId> forward_links() const;
  // The links of the way back: reversed order, each hop's backward link.
  std::vector<LinkId> backward_links() const;
};

// A route stored by a zone between two of its members, with gateways for zone routes.
struct StoredRoute {
  std::vector<LinkId> links;
  PointId gw_src = kNoPoint;
  PointId gw_dst = kNoPoint;
};

// Gateways of a zone-to-zone local route: where the route enters and leaves the two sub-zones.
struct Gateways {
  PointId src = kNoPoint;
  PointId dst = kNoPoint;
};

// What a zone may ask of the whole platform while it builds or answers a route.
class RouteContext {
public:
  virtual ~RouteContext() = default;
  virtual const NetPoint& point(PointId id) const = 0;
  // Appends the route between two points anywhere in the platform.
  virtual void append_route(PointId src, PointId dst, std::vector<LinkId>& links) const = 0;
};

class Zone {
public:
  Zone(std::string name, std::string routing);
  virtual ~Zone();
  Zone(const Zone&) = delete;
  Zone& operator=(const Zone&) = delete;

  const std::string& name() const { return name_; }
  // The routing name as written in the file ("Full", "Cluster", "TORUS", ...), for messages.
  const std::string& routing() const { return routing_; }
  Zone* parent() const { return parent_; }
  PointId point() const { return point_; }
  int depth() const { return depth_; }
  long line() const { return line_; }
  void set_line(long line) { line_ = line; }
  const std::vector<PointId>& members() const { return members_; }
  // The zone's <prop> elements (models that read the zone tree as a hierarchy of networks: xsim/...).
  const std::map<std::string, std::string>& properties() const { return properties_; }
  void set_properties(std::map<std::string, std::string> properties) { properties_ = std::move(properties); }
  const std::vector<std::unique_ptr<Zone>>& children() const { return children_; }
  // SimGrid switches a zone to "recursive" routing as soon as it has a sub-zone: its routes then
  // join sub-zones through gateways, and it gets no automatic loopback.
  bool has_children() const { return !children_.empty(); }

  // --- construction (PlatformBuilder) ---
  void attach(Zone* parent, PointId own_point);
  uint32_t add_member(PointId point, PointKind kind);
  Zone& add_child(std::unique_ptr<Zone> child);

  // A <route> or <zoneRoute> declared in this zone. Throws InputError("", 0, ...) when the
  // routing does not accept it; the default accepts none.
  virtual void add_route(const RouteDeclaration& route, const RouteContext& context);
  void add_bypass_route(const RouteDeclaration& route, const RouteContext& context);
  // Called once, when the whole platform is known (loopbacks, shortest paths).
  virtual void seal(PlatformBuilder& builder) {}
  // First pair of members (by index) that need a route and have none, if the routing can tell.
  virtual std::optional<std::pair<uint32_t, uint32_t>> find_missing_route(const std::vector<bool>& needed) const
  {
    return std::nullopt;
  }

  // --- queries ---
  // Appends the links from member `src` to member `dst` (indices into members()) and returns the
  // gateways (for routes between sub-zones). Throws InputError("", 0, ...) when there is none.
  virtual Gateways local_route(uint32_t src, uint32_t dst, const RouteContext& context,
                               std::vector<LinkId>& links) const = 0;

  // When every route between two distinct hosts that are direct members crosses links alike (the same latencies and
  // bandwidths, given by `links`, the platform's, in the same order: a FLAT cluster's routes), sets `route` to the
  // route between two of them and returns true; else false. Models that need only a route's sums (xsim: its latency
  // sum and smallest bandwidth) then ask once per zone instead of once per pair. Costs a pass over the members.
  bool uniform_host_route(const std::vector<LinkSpec>& links, std::vector<LinkId>& route) const;

  bool has_bypass_routes() const { return !bypass_routes_.empty(); }
  const StoredRoute* find_bypass_route(PointId src, PointId dst) const;

protected:
  // The uniform_host_route of a routing that can tell (the default cannot); `hosts` are the host members' indices, two
  // at least, and the zone has no bypass route.
  virtual bool uniform_route_between(const std::vector<uint32_t>& hosts, const std::vector<LinkSpec>& links,
                                     std::vector<LinkId>& route) const
  {
    (void)hosts;
    (void)links;
    (void)route;
    return false;
  }

  // Checks shared by the routings that store explicit routes (Full, Floyd, Dijkstra), with
  // SimGrid's rules: endpoints are members of this zone; plain routes join hosts or routers and
  // zone routes join sub-zones through gateways inside them; no empty route.
  void check_routed_declaration(const RouteDeclaration& route, const RouteContext& context) const;
  std::string describe(const RouteDeclaration& route, const RouteContext& context) const;

private:
  std::string name_;
  std::string routing_;
  Zone* parent_ = nullptr;
  PointId point_ = kNoPoint;
  int depth_ = 0;
  long line_ = 0;
  std::vector<PointId> members_;
  std::vector<bool> host_members_; // by member index: a host (not a router or zone)
  std::vector<std::unique_ptr<Zone>> children_;
  std::map<std::pair<PointId, PointId>, StoredRoute> bypass_routes_;
  std::map<std::string, std::string> properties_;
};

// True when `point` is `zone` itself, a member of it, or inside one of its sub-zones.
bool zone_contains(const Zone& zone, const NetPoint& point);

} // namespace mpisim::platform
