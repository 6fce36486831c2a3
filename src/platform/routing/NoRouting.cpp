// "None" routing: the zone has no network (SimGrid 3.32 EmptyZone, meant for network models that
// compute communication times without links). Asking it for a route is an error, as in SimGrid.
#include "common/Errors.hpp"
#include "platform/routing/Registry.hpp"

namespace mpisim::platform {
namespace {

class NoRouting final : public Zone {
public:
  explicit NoRouting(const std::string& name) : Zone(name, "None") {}

  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext& context, std::vector<LinkId>&) const override
  {
    throw InputError("", 0,
                     "zone '" + name() + "' has routing None: it defines no route (from '" +
                         context.point(members()[src]).name + "' to '" + context.point(members()[dst]).name +
                         "'); use it only with a network model that ignores links");
  }
};

} // namespace

ZoneRoutingEntry no_routing_entry()
{
  return {"None", "no network: the zone has no routes (for models that ignore links)", "SimGrid 3.32 EmptyZone",
          [](const std::string& name) { return std::make_unique<NoRouting>(name); }};
}

} // namespace mpisim::platform
