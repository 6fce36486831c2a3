// Fat-tree cluster (topo_parameters "h;m1,...,mh;w1,...,wh;p1,...,ph": h switch levels, m_i
// children per level-i switch, w_i parents per level-(i-1) node, p_i parallel cables between
// them), routed with destination-mod-k as SimGrid 3.32's FatTreeZone does (after Zahavi, "D-Mod-K
// Routing Providing Non-Blocking Traffic for Shift Permutations on Real Life Fat Trees", 2010).
//
// Construction, as SimGrid: hosts are nodes 0..N-1 of level 0; switches get ids counting down
// from 2N-1, level by level; every node gets a label (mixed-radix digits) and is cabled to each
// upper-level node whose label matches except at that level's digit, with p parallel cables named
// link_from_<child>_<parent>_<k> (k counts every cable of the platform). Going up, a route takes
// parent port (destination position / w_1 / ... / w_level) mod (w * p) until the destination is
// below; going down, it takes the first port, from (source position mod p) * m on, whose number
// mod m is the destination's label digit. With limiters, every node left or entered on the way
// contributes its limiter link.
//
// Two SimGrid quirks are kept because routes depend on them: host positions and cable numbers
// continue from one fat tree to the next in the same platform (SimGrid counts them in static
// variables), and the downward port scan carries on from the port it stopped at after each hop.
#include "common/Errors.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/routing/Registry.hpp"

#include <numeric>

namespace mpisim::platform {
namespace {

struct FatTreeParameters {
  uint32_t levels = 0;
  std::vector<uint32_t> children; // m_i
  std::vector<uint32_t> parents;  // w_i
  std::vector<uint32_t> cables;   // p_i
};

FatTreeParameters parse_fat_tree(std::string_view text)
{
  const std::vector<std::string_view> parts = split(text, ';');
  if (parts.size() != 4)
    throw InputError("", 0,
                     "fat-tree parameters '" + std::string(text) +
                         "' must have 4 parts separated by ';': levels;children;parents;cables");
  FatTreeParameters parameters;
  std::vector<uint32_t> levels = parse_count_list(parts[0], "fat-tree level count");
  if (levels.size() != 1)
    throw InputError("", 0, "fat-tree level count '" + std::string(parts[0]) + "' must be one number");
  parameters.levels   = levels[0];
  parameters.children = parse_count_list(parts[1], "fat-tree child count");
  parameters.parents  = parse_count_list(parts[2], "fat-tree parent count");
  parameters.cables   = parse_count_list(parts[3], "fat-tree cable count");
  const char* names[] = {"child", "parent", "cable"};
  const std::vector<uint32_t>* lists[] = {&parameters.children, &parameters.parents, &parameters.cables};
  for (int i = 0; i < 3; i++) {
    if (lists[i]->size() != parameters.levels)
      throw InputError("", 0,
                       "fat-tree parameters '" + std::string(text) + "': " + std::to_string(parameters.levels) +
                           " levels but the " + names[i] + " counts '" + std::string(parts[i + 1]) + "' have " +
                           std::to_string(lists[i]->size()));
  }
  return parameters;
}

size_t fat_tree_host_count(std::string_view text)
{
  FatTreeParameters parameters = parse_fat_tree(text);
  return std::accumulate(parameters.children.begin(), parameters.children.end(), size_t{1}, std::multiplies<>());
}

class FatTreeRouting final : public Zone {
public:
  struct Node {
    uint64_t id       = 0;
    uint32_t level    = 0;
    uint64_t position = 0;
    std::vector<uint32_t> label;
    std::vector<int64_t> children; // port -> index into cables_ (-1: none)
    std::vector<int64_t> parents;
    LinkId limiter  = kNoLink;
    LinkId loopback = kNoLink;
  };
  struct Cable {
    size_t upper;
    size_t lower;
    LinkId up;
    LinkId down;
  };

  FatTreeRouting(const std::string& name, FatTreeParameters parameters, bool has_loopback)
      : Zone(name, "FAT_TREE cluster"), parameters_(std::move(parameters)), has_loopback_(has_loopback)
  {
  }

  void build(const ClusterSpec& spec, PlatformBuilder& builder, size_t hosts)
  {
    const FatTreeParameters& p = parameters_;
    for (size_t i = 0; i < hosts; i++) {
      ClusterLeaf leaf = add_cluster_leaf(spec, builder, *this, i);
      Node node;
      node.id       = i;
      node.position = builder.counter("fat_tree.position")++;
      node.label.resize(p.levels);
      node.parents.assign(size_t{p.parents[0]} * p.cables[0], -1);
      node.limiter  = leaf.limiter;
      node.loopback = leaf.loopback;
      nodes_.push_back(std::move(node));
    }

    nodes_by_level_.assign(p.levels + 1, 0);
    nodes_by_level_[0] = hosts;
    for (uint32_t i = 0; i < p.levels; i++) {
      size_t count = 1;
      for (uint32_t j = 0; j <= i; j++)
        count *= p.parents[j];
      for (uint32_t j = i + 1; j < p.levels; j++)
        count *= p.children[j];
      nodes_by_level_[i + 1] = count;
    }
    uint64_t id = 2 * hosts;
    for (uint32_t i = 0; i < p.levels; i++) {
      for (size_t j = 0; j < nodes_by_level_[i + 1]; j++) {
        Node node;
        node.id       = --id;
        node.level    = i + 1;
        node.position = j;
        node.label.resize(p.levels);
        node.children.assign(size_t{p.children[i]} * p.cables[i], -1);
        if (i != p.levels - 1)
          node.parents.assign(size_t{p.parents[i + 1]} * p.cables[i + 1], -1);
        if (spec.limiter_bandwidth > 0)
          node.limiter = add_cluster_limiter(spec, builder, node.id);
        nodes_.push_back(std::move(node));
      }
    }
    assign_labels();
    size_t first_of_level = 0;
    for (uint32_t level = 0; level < p.levels; level++) {
      for (size_t i = 0; i < nodes_by_level_[level]; i++)
        connect_to_parents(first_of_level + i, first_of_level + nodes_by_level_[level], spec, builder);
      first_of_level += nodes_by_level_[level];
    }
  }

  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext&, std::vector<LinkId>& links) const override
  {
    const Node& source      = nodes_[src];
    const Node& destination = nodes_[dst];
    if (src == dst && has_loopback_) {
      links.push_back(source.loopback);
      return {};
    }
    const FatTreeParameters& p = parameters_;
    size_t current             = src;
    while (!is_below(nodes_[current], destination)) {
      const Node& node = nodes_[current];
      uint64_t port    = destination.position;
      for (uint32_t i = 0; i < node.level; i++)
        port /= p.parents[i];
      port %= uint64_t{p.parents[node.level]} * p.cables[node.level];
      if (node.limiter != kNoLink)
        links.push_back(node.limiter);
      const Cable& cable = cable_at(node.parents[port]);
      links.push_back(cable.up);
      current = cable.upper;
    }
    while (current != dst) {
      const size_t before = links.size();
      const uint64_t first_port =
          (source.position % p.cables[nodes_[current].level - 1]) * p.children[nodes_[current].level - 1];
      for (uint64_t port = first_port; port < nodes_[current].children.size(); port++) {
        const Node& node = nodes_[current];
        if (port % p.children[node.level - 1] == destination.label[node.level - 1]) {
          const Cable& cable = cable_at(node.children[port]);
          links.push_back(cable.down);
          if (node.limiter != kNoLink)
            links.push_back(node.limiter);
          current = cable.lower;
        }
      }
      if (links.size() == before)
        throw InputError("", 0, "fat tree '" + name() + "' has no downward cable towards its host " + std::to_string(dst));
    }
    if (destination.limiter != kNoLink)
      links.push_back(destination.limiter);
    return {};
  }

private:
  const Cable& cable_at(int64_t index) const
  {
    if (index < 0)
      throw InputError("", 0, "fat tree '" + name() + "' has an unconnected port on a route");
    return cables_[static_cast<size_t>(index)];
  }

  // Labels count in mixed radix, lowest digit first; digit j ranges over m_j below the node's
  // level and over w_j from it on.
  void assign_labels()
  {
    const FatTreeParameters& p = parameters_;
    size_t k                   = 0;
    for (uint32_t level = 0; level <= p.levels; level++) {
      std::vector<uint32_t> label(p.levels, 0);
      std::vector<uint32_t> radix(p.levels);
      for (uint32_t j = 0; j < p.levels; j++)
        radix[j] = j + 1 > level ? p.children[j] : p.parents[j];
      for (size_t i = 0; i < nodes_by_level_[level]; i++, k++) {
        nodes_[k].label = label;
        for (uint32_t digit = 0; digit < p.levels; digit++) {
          if (++label[digit] < radix[digit])
            break;
          label[digit] = 0;
        }
      }
    }
  }

  bool related(const Node& upper, const Node& lower) const
  {
    if (upper.level != lower.level + 1)
      return false;
    for (uint32_t i = 0; i < parameters_.levels; i++) {
      if (upper.label[i] != lower.label[i] && i + 1 != upper.level)
        return false;
    }
    return true;
  }

  bool is_below(const Node& root, const Node& node) const
  {
    if (root.level <= node.level)
      return false;
    for (uint32_t i = 0; i < node.level; i++)
      if (root.label[i] != node.label[i])
        return false;
    for (uint32_t i = root.level; i < parameters_.levels; i++)
      if (root.label[i] != node.label[i])
        return false;
    return true;
  }

  void connect_to_parents(size_t lower, size_t first_upper, const ClusterSpec& spec, PlatformBuilder& builder)
  {
    const FatTreeParameters& p = parameters_;
    const uint32_t level       = nodes_[lower].level;
    for (size_t i = 0; i < nodes_by_level_[level + 1]; i++) {
      const size_t upper = first_upper + i;
      if (!related(nodes_[upper], nodes_[lower]))
        continue;
      for (uint32_t j = 0; j < p.cables[level]; j++) {
        const size_t upper_port = nodes_[lower].label[level] + size_t{j} * p.children[level];
        const size_t lower_port = nodes_[upper].label[level] + size_t{j} * p.parents[level];
        const uint64_t number   = builder.counter("fat_tree.cable")++;
        auto [up, down]         = add_cluster_link(spec, builder,
                                                   "link_from_" + std::to_string(nodes_[lower].id) + "_" +
                                                       std::to_string(nodes_[upper].id) + "_" + std::to_string(number));
        cables_.push_back({upper, lower, up, down});
        nodes_[upper].children.at(upper_port) = static_cast<int64_t>(cables_.size() - 1);
        nodes_[lower].parents.at(lower_port)  = static_cast<int64_t>(cables_.size() - 1);
      }
    }
  }

  FatTreeParameters parameters_;
  bool has_loopback_;
  std::vector<Node> nodes_; // hosts (index = member index), then switches level by level
  std::vector<size_t> nodes_by_level_;
  std::vector<Cable> cables_;
};

void build_fat_tree(const ClusterSpec& spec, PlatformBuilder& builder, Zone* parent)
{
  FatTreeParameters parameters = parse_fat_tree(spec.topo_parameters);
  const size_t hosts           = fat_tree_host_count(spec.topo_parameters);
  check_hierarchical_cluster(spec, builder, hosts);
  auto& zone = static_cast<FatTreeRouting&>(builder.add_zone(
      parent, std::make_unique<FatTreeRouting>(spec.id, std::move(parameters), spec.has_loopback()), spec.line));
  zone.build(spec, builder, hosts);
}

} // namespace

TopologyEntry fat_tree_topology_entry()
{
  return {"FAT_TREE", "fattree",
          "fat tree (PGFT) with destination-mod-k routing",
          "Zahavi, D-Mod-K Routing ... on Real Life Fat Trees (2010); SimGrid 3.32 FatTreeZone",
          fat_tree_host_count, build_fat_tree};
}

} // namespace mpisim::platform
