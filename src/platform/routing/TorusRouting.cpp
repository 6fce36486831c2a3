// Torus cluster: hosts on a D-dimensional torus (topo_parameters "X,Y,Z,..."), routed dimension
// by dimension with wrap-around, as SimGrid 3.32's TorusZone does.
//
// Host r has coordinate (r / (d0*...*d(j-1))) mod dj in dimension j. It owns, per dimension j, the
// link to its +1 neighbour (wrapping), named <id>_link_from_<r>_to_<neighbour> (+ _UP/_DOWN when
// SPLITDUPLEX). A route corrects the first differing dimension, then the next, one hop at a time;
// the direction of each dimension is chosen once from the source's coordinate (right when the
// target is at most d/2 ahead, or when the wrap-around is shorter from the upper half). Going
// right uses the current host's link "up"; going left uses the next host's link "down". With
// limiter links, the limiter of every host a hop leaves from is crossed, then the destination's.
#include "common/Errors.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/routing/Registry.hpp"

#include <numeric>

namespace mpisim::platform {
namespace {

class TorusRouting final : public Zone {
public:
  TorusRouting(const std::string& name, std::vector<uint32_t> dimensions, size_t hosts)
      : Zone(name, "TORUS cluster"), dimensions_(std::move(dimensions)), hop_links_(hosts * dimensions_.size()),
        loopback_(hosts, kNoLink), limiter_(hosts, kNoLink)
  {
  }

  void set_host_links(size_t rank, const ClusterLeaf& leaf, const std::vector<std::pair<LinkId, LinkId>>& hops)
  {
    loopback_[rank] = leaf.loopback;
    limiter_[rank]  = leaf.limiter;
    for (size_t j = 0; j < dimensions_.size(); j++)
      hop_links_[rank * dimensions_.size() + j] = hops[j];
  }

  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext&, std::vector<LinkId>& links) const override
  {
    if (src == dst && loopback_[src] != kNoLink) {
      links.push_back(loopback_[src]);
      return {};
    }
    const size_t dims = dimensions_.size();
    std::vector<uint64_t> source(dims);
    std::vector<uint64_t> target(dims);
    uint64_t product = 1;
    for (size_t j = 0; j < dims; j++) {
      source[j] = (src / product) % dimensions_[j];
      target[j] = (dst / product) % dimensions_[j];
      product *= dimensions_[j];
    }

    uint64_t current = src;
    while (current != dst) {
      uint64_t next     = 0;
      LinkId hop        = kNoLink;
      uint64_t stride   = 1;
      for (size_t j = 0; j < dims; j++) {
        const uint64_t size     = dimensions_[j];
        const uint64_t position = (current / stride) % size;
        if (position != (dst / stride) % size) {
          const bool right = (target[j] > source[j] && target[j] <= source[j] + size / 2) ||
                             (source[j] > size / 2 && (source[j] + size / 2) % size >= target[j]);
          if (right) {
            next = position == size - 1 ? current + stride - stride * size : current + stride;
            hop  = hop_links_[current * dims + j].first;
          } else {
            next = position == 0 ? current - stride + stride * size : current - stride;
            hop  = hop_links_[next * dims + j].second;
          }
          break;
        }
        stride *= size;
      }
      if (limiter_[current] != kNoLink)
        links.push_back(limiter_[current]);
      links.push_back(hop);
      current = next;
    }
    if (limiter_[dst] != kNoLink)
      links.push_back(limiter_[dst]);
    return {};
  }

private:
  std::vector<uint32_t> dimensions_;
  std::vector<std::pair<LinkId, LinkId>> hop_links_; // [rank * dims + j]: {up, down} to the +1 neighbour
  std::vector<LinkId> loopback_;
  std::vector<LinkId> limiter_;
};

std::vector<uint32_t> parse_dimensions(std::string_view parameters)
{
  return parse_count_list(parameters, "torus dimension");
}

size_t torus_host_count(std::string_view parameters)
{
  std::vector<uint32_t> dimensions = parse_dimensions(parameters);
  return std::accumulate(dimensions.begin(), dimensions.end(), size_t{1}, std::multiplies<>());
}

void build_torus(const ClusterSpec& spec, PlatformBuilder& builder, Zone* parent)
{
  std::vector<uint32_t> dimensions = parse_dimensions(spec.topo_parameters);
  const size_t hosts               = torus_host_count(spec.topo_parameters);
  check_hierarchical_cluster(spec, builder, hosts);
  auto& zone = static_cast<TorusRouting&>(
      builder.add_zone(parent, std::make_unique<TorusRouting>(spec.id, dimensions, hosts), spec.line));
  std::vector<std::pair<LinkId, LinkId>> hops(dimensions.size());
  for (size_t rank = 0; rank < hosts; rank++) {
    ClusterLeaf leaf = add_cluster_leaf(spec, builder, zone, rank);
    uint64_t stride  = 1;
    for (size_t j = 0; j < dimensions.size(); j++) {
      const uint64_t size      = dimensions[j];
      const uint64_t neighbour = (rank / stride) % size == size - 1 ? rank - (size - 1) * stride : rank + stride;
      hops[j] = add_cluster_link(spec, builder,
                                 spec.id + "_link_from_" + std::to_string(rank) + "_to_" + std::to_string(neighbour));
      stride *= size;
    }
    zone.set_host_links(rank, leaf, hops);
  }
}

} // namespace

TopologyEntry torus_topology_entry()
{
  return {"TORUS", "torus",
          "D-dimensional torus, dimension-order routing with wrap-around",
          "SimGrid 3.32 TorusZone", torus_host_count, build_torus};
}

} // namespace mpisim::platform
