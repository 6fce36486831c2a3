// The tree of zones and every named point in it; assembles routes across zones.
//
// Route between two points, as SimGrid 3.32 computes it (Platform_routing.rst, "Calculating
// network paths"): find the common ancestor zone of both points and its two children leading to
// them; if the ancestor has a bypass route for the pair (or for zones on the way), use it;
// otherwise, when both points are members of the ancestor, its local route is the answer, and
// when not, the ancestor's local route between the two children gives two gateways and the route
// is route(src, gw_src) + local links + route(gw_dst, dst).
#pragma once

#include "platform/NameIndex.hpp"
#include "platform/Zone.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::platform {

class ZoneTree final : public RouteContext {
public:
  const NetPoint& point(PointId id) const override { return points_[id]; }
  void append_route(PointId src, PointId dst, std::vector<LinkId>& links) const override;

  PointId host_point(HostId host) const { return host_points_[host]; }
  std::optional<PointId> find_point(std::string_view name) const;
  size_t point_count() const { return points_.size(); }
  Zone* root() const { return root_.get(); }

  // --- construction (PlatformBuilder) ---
  PointId add_point(NetPoint point);
  NetPoint& mutable_point(PointId id) { return points_[id]; }
  void set_host_point(HostId host, PointId point);
  void set_root(std::unique_ptr<Zone> root) { root_ = std::move(root); }

private:
  // zone.local_route(), with the zone's line on errors that have none.
  Gateways local_route(const Zone& zone, uint32_t src, uint32_t dst, std::vector<LinkId>& links) const;
  // SimGrid's bypass lookup in the common ancestor; appends and returns true when one applies.
  bool append_bypass_route(const Zone& common, PointId src, PointId dst, std::vector<LinkId>& links) const;

  std::vector<NetPoint> points_;
  NameIndex point_names_; // find_point: ids by the names in points_
  std::string_view point_name(uint32_t id) const { return points_[id].name; }
  std::vector<PointId> host_points_;
  std::unique_ptr<Zone> root_;
};

} // namespace mpisim::platform
