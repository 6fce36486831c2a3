// TORUS cluster: hosts on a D-dimensional torus (a k-ary n-cube with one size per dimension),
// routed dimension by dimension, as SimGrid 3.32 builds <cluster topology="TORUS">.
// Behaviour: docs/specifications/generated-topology-routing.md §3.
//
// topo_parameters "4,4,2" gives 32 hosts; host r sits at coordinates (r mod 4, r/4 mod 4, r/16).
// Every host owns one cable per dimension, towards its next neighbour in that dimension:
//   <id>_link_from_<r>_to_<next>   split into _UP (r -> next) and _DOWN (next -> r) for SPLITDUPLEX
// so the link between two neighbours belongs to the one the other follows.
#include "common/Errors.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/PlatformSize.hpp"
#include "platform/routing/Registry.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::platform {
namespace {

using Rank = uint64_t; // a host's position in the cluster

// The sizes of the rings: dimension 0 varies fastest in the rank.
class TorusShape {
public:
  explicit TorusShape(std::vector<uint32_t> ring_sizes) : ring_sizes_(std::move(ring_sizes))
  {
    Rank stride = 1;
    for (uint32_t size : ring_sizes_) {
      strides_.push_back(stride);
      stride = saturating_product(stride, size);
    }
    host_count_ = stride;
  }

  Rank host_count() const { return host_count_; }
  size_t dimensions() const { return ring_sizes_.size(); }
  uint32_t ring_size(size_t dimension) const { return ring_sizes_[dimension]; }

  uint32_t coordinate(Rank rank, size_t dimension) const
  {
    return static_cast<uint32_t>(rank / strides_[dimension] % ring_sizes_[dimension]);
  }

  // The host one step further (+1) or one step back (-1) along `dimension`, wrapping around.
  Rank neighbour(Rank rank, size_t dimension, int step) const
  {
    const uint32_t size = ring_sizes_[dimension];
    const uint32_t from = coordinate(rank, dimension);
    const uint32_t to = step > 0 ? (from + 1) % size : (from + size - 1) % size;
    return rank - Rank(from) * strides_[dimension] + Rank(to) * strides_[dimension];
  }

private:
  std::vector<uint32_t> ring_sizes_;
  std::vector<Rank> strides_;
  Rank host_count_ = 1;
};

TorusShape parse_torus_shape(std::string_view topo_parameters)
{
  return TorusShape(parse_count_list(topo_parameters, "torus dimension"));
}

enum class RingDirection { Forward, Backward };

// Which way round a ring of `size` to go from coordinate `from` to `to`: the shorter one. When both
// are equally long (even ring, half-way), SimGrid 3.32 goes forward except from the middle
// coordinate to 0, which goes backward: in a ring of 2, 0 -> 1 and 1 -> 0 both use 0's cable.
RingDirection ring_direction(uint32_t from, uint32_t to, uint32_t size)
{
  const uint32_t forward_distance = (to + size - from) % size;
  const uint32_t half = size / 2;
  const bool middle_to_origin = size % 2 == 0 && from == half && to == 0;
  if (forward_distance >= 1 && forward_distance <= half && !middle_to_origin)
    return RingDirection::Forward;
  return RingDirection::Backward;
}

// The two directions of one cable: up from its owner to the next host, down back to the owner.
struct RingCable {
  LinkId up = kNoLink;
  LinkId down = kNoLink;
};

class TorusRouting final : public Zone {
public:
  TorusRouting(const std::string& name, TorusShape shape) : Zone(name, "TORUS cluster"), shape_(std::move(shape))
  {
    leaves_.reserve(shape_.host_count());
    cables_.reserve(shape_.host_count() * shape_.dimensions());
  }

  const TorusShape& shape() const { return shape_; }

  // Called for rank 0, 1, ... in order: the host's private links, then its cables by dimension.
  void add_host(const ClusterLeaf& leaf, std::vector<RingCable> cables)
  {
    leaves_.push_back(leaf);
    cables_.insert(cables_.end(), cables.begin(), cables.end());
  }

  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext&, std::vector<LinkId>& links) const override
  {
    if (src == dst && leaves_[src].loopback != kNoLink) {
      links.push_back(leaves_[src].loopback);
      return {};
    }
    // Each hop leaves a host through its limiter; the destination's limiter closes the route.
    Rank here = src;
    for (size_t dimension = 0; dimension < shape_.dimensions(); dimension++) {
      const uint32_t target = shape_.coordinate(dst, dimension);
      if (shape_.coordinate(here, dimension) == target)
        continue;
      const RingDirection direction =
          ring_direction(shape_.coordinate(src, dimension), target, shape_.ring_size(dimension));
      while (shape_.coordinate(here, dimension) != target) {
        append_limiter(here, links);
        here = hop(here, dimension, direction, links);
      }
    }
    append_limiter(dst, links);
    return {};
  }

private:
  const RingCable& cable(Rank owner, size_t dimension) const
  {
    return cables_[owner * shape_.dimensions() + dimension];
  }

  // Appends the link of one step from `from` and returns where it leads. Going forward uses the
  // cable `from` owns; going backward, the cable the previous host owns towards `from`.
  Rank hop(Rank from, size_t dimension, RingDirection direction, std::vector<LinkId>& links) const
  {
    if (direction == RingDirection::Forward) {
      links.push_back(cable(from, dimension).up);
      return shape_.neighbour(from, dimension, +1);
    }
    const Rank previous = shape_.neighbour(from, dimension, -1);
    links.push_back(cable(previous, dimension).down);
    return previous;
  }

  void append_limiter(Rank host, std::vector<LinkId>& links) const
  {
    if (leaves_[host].limiter != kNoLink)
      links.push_back(leaves_[host].limiter);
  }

  TorusShape shape_;
  std::vector<ClusterLeaf> leaves_;
  std::vector<RingCable> cables_; // rank * dimensions + dimension
};

size_t torus_host_count(std::string_view topo_parameters)
{
  return parse_torus_shape(topo_parameters).host_count();
}

void build_torus(const ClusterSpec& spec, PlatformBuilder& builder, Zone* parent)
{
  TorusShape shape = parse_torus_shape(spec.topo_parameters);
  // each host: itself and a cable per dimension, two links when split-duplex
  const uint64_t elements = saturating_product(shape.host_count(), 1 + 2 * shape.dimensions());
  check_hierarchical_cluster(spec, builder, shape.host_count(), elements);
  auto& zone = static_cast<TorusRouting&>(
      builder.add_zone(parent, std::make_unique<TorusRouting>(spec.id, std::move(shape)), spec.line));

  // SimGrid creates each host's cables right after the host, so link ids interleave.
  const TorusShape& torus = zone.shape();
  for (Rank rank = 0; rank < torus.host_count(); rank++) {
    const ClusterLeaf leaf = add_cluster_leaf(spec, builder, zone, rank);
    std::vector<RingCable> cables;
    for (size_t dimension = 0; dimension < torus.dimensions(); dimension++) {
      const Rank next = torus.neighbour(rank, dimension, +1);
      const auto cable = add_cluster_link(
          spec, builder, spec.id + "_link_from_" + std::to_string(rank) + "_to_" + std::to_string(next));
      cables.push_back({cable.first, cable.second});
    }
    zone.add_host(leaf, std::move(cables));
  }
}

} // namespace

TopologyEntry torus_topology_entry()
{
  return {"TORUS",
          "torus",
          "D-dimensional torus, dimension-order routing along the shorter way round each ring",
          "Dally and Seitz, Deadlock-free message routing in multiprocessor interconnection networks (1987); "
          "SimGrid 3.32 <cluster topology=\"TORUS\">",
          torus_host_count,
          build_torus};
}

} // namespace mpisim::platform
