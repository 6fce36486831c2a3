// Star routing: every member has its own links up to a central point and down from it; a route
// is the source's up links then the destination's down links, each link counted once. This is
// SimGrid 3.32's StarZone, behind <zone routing="Cluster"> (filled by <cabinet>, <backbone>,
// <host_link>) and behind FLAT <cluster> elements.
#pragma once

#include "platform/Zone.hpp"

#include <vector>

namespace mpisim::platform {

class StarRouting final : public Zone {
public:
  StarRouting(const std::string& name, const std::string& routing) : Zone(name, routing) {}

  // Links from `member` to the centre (up) and from the centre to `member` (down). A gateway is
  // only needed when the member is a sub-zone.
  void set_up_links(uint32_t member, std::vector<LinkId> links, PointId gateway = kNoPoint);
  void set_down_links(uint32_t member, std::vector<LinkId> links, PointId gateway = kNoPoint);
  // Route from `member` to itself; without one, a member reaches itself through up and down links.
  void set_loopback(uint32_t member, std::vector<LinkId> links);

  // Only <route src="h" dst="h"> is accepted: it sets h's loopback.
  void add_route(const RouteDeclaration& route, const RouteContext& context) override;
  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext& context,
                       std::vector<LinkId>& links) const override;

protected:
  // Uniform when every host's up-then-down links have the first host's latencies and bandwidths, position by
  // position, and each position holds either one link for all (a backbone) or a link of that host's own (no other
  // member crosses it), repeated at the same positions: the route between two distinct hosts, up links then the
  // down links not crossed yet, then has the same latencies and bandwidths whichever the two.
  bool uniform_route_between(const std::vector<uint32_t>& hosts, const std::vector<LinkSpec>& links,
                             std::vector<LinkId>& route) const override;

private:
  struct MemberLinks {
    std::vector<LinkId> up;
    std::vector<LinkId> down;
    std::vector<LinkId> loopback;
    bool has_loopback = false;
    PointId gateway = kNoPoint; // SimGrid keeps one gateway per member, for both directions
  };
  MemberLinks& links_of(uint32_t member);
  const MemberLinks& member_links(uint32_t member) const; // empty lists for a member without links

  std::vector<MemberLinks> members_links_;
};

} // namespace mpisim::platform
