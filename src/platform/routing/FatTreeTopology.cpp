// FAT_TREE cluster: a generalised fat tree of h switch levels above the hosts, routed up to the
// lowest common level and down again with destination-mod-k port selection, as SimGrid 3.32
// builds <cluster topology="FAT_TREE">. Behaviour: docs/specifications/generated-topology-routing.md §4.
//
// topo_parameters "h;m_1,...,m_h;w_1,...,w_h;p_1,...,p_h": a level-L switch has m_L children, a
// level-(L-1) node has w_L parents, and each child-parent pair is joined by p_L parallel cables.
// Every node has a label, one digit per level; a node and a node one level up are joined when
// their labels differ at most in the digit of the upper level. Names:
//   link_from_<child id>_<parent id>_<n>   one per cable, n counted over the whole platform;
//                                          split into _UP (towards the parent) and _DOWN
//   <id>_link_<node id>_limiter            per host and per switch, when limiter_link is set
// Hosts have ids 0..H-1 (their positions); switches count down from 2H-1, level 1 first.
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

// What one level of switches (level 1 = the one above the hosts) says about its links downwards.
struct FatTreeLevel {
  uint32_t children = 1; // m_L: children of a switch of this level
  uint32_t parents = 1;  // w_L: parents, in this level, of a node of the level below
  uint32_t cables = 1;   // p_L: parallel cables between a child and each of its parents

  uint64_t parent_ports() const { return uint64_t(parents) * cables; }
  uint64_t child_ports() const { return uint64_t(children) * cables; }
};

// A node of the tree: its level (0 for hosts) and its digits, digit[L-1] being digit L of the
// page. Below the node's level a digit tells which parent was taken on the way up (radix w); at
// and above it, which child to take on the way down (radix m).
struct NodeLabel {
  size_t level = 0;
  std::vector<uint32_t> digits;
};

class FatTreeShape {
public:
  explicit FatTreeShape(std::vector<FatTreeLevel> levels) : levels_(std::move(levels))
  {
    host_count_ = 1;
    for (const auto& level : levels_)
      host_count_ = saturating_product(host_count_, level.children);
    uint64_t switches = 0;
    for (size_t level = 1; level <= height(); level++) {
      first_switch_.push_back(switches);
      switches = saturating_sum(switches, node_count(level));
    }
    switch_count_ = switches;
  }

  size_t height() const { return levels_.size(); }
  const FatTreeLevel& level(size_t level) const { return levels_[level - 1]; }
  uint64_t host_count() const { return host_count_; }
  uint64_t switch_count() const { return switch_count_; }

  // n_L = w_1...w_L * m_{L+1}...m_h: the product of the radices of a level-L label.
  uint64_t node_count(size_t level) const
  {
    uint64_t count = 1;
    for (size_t digit = 1; digit <= height(); digit++)
      count = saturating_product(count, radix(level, digit));
    return count;
  }

  // Switches are numbered across levels, level 1 first: this is the order of their ids.
  uint64_t switch_ordinal(const NodeLabel& node) const { return first_switch_[node.level - 1] + index_in_level(node); }

  NodeLabel label(size_t level, uint64_t index) const
  {
    NodeLabel node{level, {}};
    node.digits.reserve(height());
    for (size_t digit = 1; digit <= height(); digit++) {
      node.digits.push_back(static_cast<uint32_t>(index % radix(level, digit)));
      index /= radix(level, digit);
    }
    return node;
  }

  // Mixed-radix number of the label, digit 1 least significant.
  uint64_t index_in_level(const NodeLabel& node) const
  {
    uint64_t index = 0;
    for (size_t digit = node.digits.size(); digit >= 1; digit--)
      index = index * radix(node.level, digit) + node.digits[digit - 1];
    return index;
  }

  // Parents taken by the hosts' way up to `level`: w_1...w_level.
  uint64_t parents_below(size_t level) const
  {
    uint64_t product = 1;
    for (size_t l = 1; l <= level; l++)
      product *= this->level(l).parents;
    return product;
  }

private:
  uint32_t radix(size_t level, size_t digit) const
  {
    return digit <= level ? levels_[digit - 1].parents : levels_[digit - 1].children;
  }

  std::vector<FatTreeLevel> levels_;
  std::vector<uint64_t> first_switch_;
  uint64_t host_count_ = 1;
  uint64_t switch_count_ = 0;
};

FatTreeShape parse_fat_tree_shape(std::string_view text)
{
  const std::vector<std::string_view> parts = split(text, ';');
  if (parts.size() != 4)
    throw InputError("", 0,
                     "fat-tree parameters '" + std::string(text) +
                         "' must have 4 parts separated by ';': levels;children;parents;cables");
  const std::vector<uint32_t> height = parse_count_list(parts[0], "fat-tree level count");
  if (height.size() != 1)
    throw InputError("", 0, "fat-tree level count '" + std::string(parts[0]) + "' must be one number");
  const std::vector<uint32_t> children = parse_count_list(parts[1], "fat-tree child count");
  const std::vector<uint32_t> parents = parse_count_list(parts[2], "fat-tree parent count");
  const std::vector<uint32_t> cables = parse_count_list(parts[3], "fat-tree cable count");
  auto require_one_per_level = [&](const std::vector<uint32_t>& counts, const char* what, std::string_view part) {
    if (counts.size() != height[0])
      throw InputError("", 0,
                       "fat-tree parameters '" + std::string(text) + "': " + std::to_string(height[0]) +
                           " levels but the " + what + " counts '" + std::string(part) + "' have " +
                           std::to_string(counts.size()));
  };
  require_one_per_level(children, "child", parts[1]);
  require_one_per_level(parents, "parent", parts[2]);
  require_one_per_level(cables, "cable", parts[3]);

  std::vector<FatTreeLevel> levels;
  for (size_t i = 0; i < height[0]; i++)
    levels.push_back({children[i], parents[i], cables[i]});
  return FatTreeShape(std::move(levels));
}

struct DuplexCable {
  LinkId up = kNoLink;   // child -> parent
  LinkId down = kNoLink; // parent -> child
};

class FatTreeRouting final : public Zone {
public:
  FatTreeRouting(const std::string& name, FatTreeShape shape, uint64_t first_position)
      : Zone(name, "FAT_TREE cluster"), shape_(std::move(shape)), first_position_(first_position)
  {
    for (size_t level = 1; level <= shape_.height(); level++)
      cables_.emplace_back(shape_.node_count(level - 1) * shape_.level(level).parent_ports());
    switch_limiters_.assign(shape_.switch_count(), kNoLink);
  }

  const FatTreeShape& shape() const { return shape_; }

  void add_host(const ClusterLeaf& leaf) { hosts_.push_back(leaf); }
  void set_switch_limiter(uint64_t ordinal, LinkId limiter) { switch_limiters_[ordinal] = limiter; }

  // A cable seen from the child: its parent port numbers first the parents, then the parallel
  // cables (port = parent digit + cable * w_L).
  void set_cable(const NodeLabel& child, uint64_t parent_port, DuplexCable cable)
  {
    cable_slot(child, parent_port) = cable;
  }

  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext&, std::vector<LinkId>& links) const override
  {
    if (src == dst && hosts_[src].loopback != kNoLink) {
      links.push_back(hosts_[src].loopback);
      return {};
    }
    const NodeLabel source = shape_.label(0, src);
    const NodeLabel destination = shape_.label(0, dst);
    const size_t top = turning_level(source, destination);
    const uint64_t source_position = first_position_ + src;
    const uint64_t destination_position = first_position_ + dst;

    NodeLabel node = source;
    while (node.level < top)
      node = climb(node, destination_position, links);
    uint64_t port = first_down_port(top, source_position, destination);
    while (node.level > 0) {
      if (node.level < top)
        port = next_down_port(node.level, port, source_position, destination);
      node = descend(node, destination, port, links);
    }
    append_limiter(node, links);
    return {};
  }

private:
  // The level where the route turns down: the highest digit where the two labels differ (level 1
  // for a host to itself, which goes through its first switch).
  static size_t turning_level(const NodeLabel& source, const NodeLabel& destination)
  {
    for (size_t digit = source.digits.size(); digit > 1; digit--) {
      if (source.digits[digit - 1] != destination.digits[digit - 1])
        return digit;
    }
    return 1;
  }

  // One step up from `node`: destination-mod-k spreads destinations over the parent ports, using
  // the destination's position divided by the ports already chosen on the levels below.
  NodeLabel climb(const NodeLabel& node, uint64_t destination_position, std::vector<LinkId>& links) const
  {
    const size_t level = node.level + 1;
    const FatTreeLevel& above = shape_.level(level);
    const uint64_t port = destination_position / shape_.parents_below(level - 1) % above.parent_ports();
    append_limiter(node, links);
    links.push_back(cable_slot(node, port).up);
    NodeLabel parent = node;
    parent.level = level;
    parent.digits[level - 1] = static_cast<uint32_t>(port % above.parents);
    return parent;
  }

  // One step down from switch `node` towards the child on the destination's side, through the
  // cable the child port selects (port = destination digit + cable * m_L).
  NodeLabel descend(const NodeLabel& node, const NodeLabel& destination, uint64_t child_port,
                    std::vector<LinkId>& links) const
  {
    const size_t level = node.level;
    const FatTreeLevel& below = shape_.level(level);
    const uint64_t cable = child_port / below.children;
    NodeLabel child = node;
    child.level = level - 1;
    child.digits[level - 1] = destination.digits[level - 1];
    const uint64_t parent_port = node.digits[level - 1] + cable * below.parents;
    links.push_back(cable_slot(child, parent_port).down);
    append_limiter(node, links);
    return child;
  }

  // At the top, the cable is chosen by the source's position.
  uint64_t first_down_port(size_t level, uint64_t source_position, const NodeLabel& destination) const
  {
    const FatTreeLevel& below = shape_.level(level);
    return source_position % below.cables * below.children + destination.digits[level - 1];
  }

  // Further down, SimGrid carries its scan of ports on from the port used one level up: the next
  // port reaching the right child, if the switch has one that high, else the top's rule again.
  uint64_t next_down_port(size_t level, uint64_t port_above, uint64_t source_position,
                          const NodeLabel& destination) const
  {
    const FatTreeLevel& below = shape_.level(level);
    const uint64_t wanted = destination.digits[level - 1];
    const uint64_t start = port_above + 1;
    const uint64_t candidate = start + (wanted + below.children - start % below.children) % below.children;
    if (candidate < below.child_ports())
      return candidate;
    return first_down_port(level, source_position, destination);
  }

  const DuplexCable& cable_slot(const NodeLabel& child, uint64_t parent_port) const
  {
    return cables_[child.level]
                  [shape_.index_in_level(child) * shape_.level(child.level + 1).parent_ports() + parent_port];
  }
  DuplexCable& cable_slot(const NodeLabel& child, uint64_t parent_port)
  {
    return cables_[child.level]
                  [shape_.index_in_level(child) * shape_.level(child.level + 1).parent_ports() + parent_port];
  }

  void append_limiter(const NodeLabel& node, std::vector<LinkId>& links) const
  {
    const LinkId limiter =
        node.level == 0 ? hosts_[shape_.index_in_level(node)].limiter : switch_limiters_[shape_.switch_ordinal(node)];
    if (limiter != kNoLink)
      links.push_back(limiter);
  }

  FatTreeShape shape_;
  uint64_t first_position_; // hosts of FAT_TREE clusters built before this one, in the same platform
  std::vector<ClusterLeaf> hosts_;
  std::vector<LinkId> switch_limiters_;          // by switch ordinal
  std::vector<std::vector<DuplexCable>> cables_; // [child level][child index * parent ports + port]
};

// Ids in link names: hosts by position, switches counting down from 2H-1. The count goes below
// zero when there are more than 2H switches; SimGrid then writes a minus sign.
int64_t node_id(const FatTreeShape& shape, const NodeLabel& node)
{
  if (node.level == 0)
    return static_cast<int64_t>(shape.index_in_level(node));
  return 2 * static_cast<int64_t>(shape.host_count()) - 1 - static_cast<int64_t>(shape.switch_ordinal(node));
}

size_t fat_tree_host_count(std::string_view topo_parameters)
{
  return parse_fat_tree_shape(topo_parameters).host_count();
}

void add_switch_limiters(const ClusterSpec& spec, PlatformBuilder& builder, FatTreeRouting& zone)
{
  const FatTreeShape& shape = zone.shape();
  for (size_t level = 1; level <= shape.height(); level++) {
    for (uint64_t index = 0; index < shape.node_count(level); index++) {
      const NodeLabel node = shape.label(level, index);
      // A switch id below zero would be at least the H-th switch id to reach the host range: its
      // limiter collides with a host's one first (duplicate link), so ids here are never negative.
      zone.set_switch_limiter(shape.switch_ordinal(node),
                              add_cluster_limiter(spec, builder, static_cast<uint64_t>(node_id(shape, node))));
    }
  }
}

// Cables level by level, child by child, then parent by parent and parallel cable by cable.
void add_cables(const ClusterSpec& spec, PlatformBuilder& builder, FatTreeRouting& zone)
{
  const FatTreeShape& shape = zone.shape();
  uint64_t& cable_number = builder.counter("fat_tree.cable");
  for (size_t level = 1; level <= shape.height(); level++) {
    const FatTreeLevel& above = shape.level(level);
    for (uint64_t index = 0; index < shape.node_count(level - 1); index++) {
      const NodeLabel child = shape.label(level - 1, index);
      for (uint32_t parent_digit = 0; parent_digit < above.parents; parent_digit++) {
        NodeLabel parent = child;
        parent.level = level;
        parent.digits[level - 1] = parent_digit;
        const std::string stem =
            "link_from_" + std::to_string(node_id(shape, child)) + "_" + std::to_string(node_id(shape, parent)) + "_";
        for (uint32_t cable = 0; cable < above.cables; cable++) {
          const auto links = add_cluster_link(spec, builder, stem + std::to_string(cable_number++));
          zone.set_cable(child, parent_digit + uint64_t(cable) * above.parents, {links.first, links.second});
        }
      }
    }
  }
}

// Hosts, switches and the links of the cables: what the size check weighs before the zone sizes its table of cables
// (a few hosts with a billion parallel cables per pair, `fattree:2;4,4;2,2;999999991,1`, would need 256 GB).
uint64_t fat_tree_elements(const ClusterSpec& spec, const FatTreeShape& shape)
{
  uint64_t cables = 0;
  for (size_t level = 1; level <= shape.height(); level++)
    cables = saturating_sum(cables, saturating_product(shape.node_count(level - 1), shape.level(level).parent_ports()));
  return saturating_sum(saturating_sum(shape.host_count(), shape.switch_count()),
                        saturating_product(cables, links_per_cable(spec)));
}

void build_fat_tree(const ClusterSpec& spec, PlatformBuilder& builder, Zone* parent)
{
  FatTreeShape shape = parse_fat_tree_shape(spec.topo_parameters);
  check_hierarchical_cluster(spec, builder, shape.host_count(), fat_tree_elements(spec, shape));
  // SimGrid numbers positions across all fat trees of a process; routing depends on them.
  uint64_t& positions = builder.counter("fat_tree.position");
  const uint64_t first_position = positions;
  positions += shape.host_count();
  auto& zone = static_cast<FatTreeRouting&>(
      builder.add_zone(parent, std::make_unique<FatTreeRouting>(spec.id, std::move(shape), first_position), spec.line));

  for (uint64_t position = 0; position < zone.shape().host_count(); position++)
    zone.add_host(add_cluster_leaf(spec, builder, zone, position));
  if (spec.limiter_bandwidth > 0)
    add_switch_limiters(spec, builder, zone);
  add_cables(spec, builder, zone);
}

} // namespace

TopologyEntry fat_tree_topology_entry()
{
  return {"FAT_TREE",
          "fattree",
          "generalised fat tree, up to the lowest common level and down, destination-mod-k",
          "Ohring et al., On generalized fat trees (1995); Zahavi, D-Mod-K routing providing non-blocking traffic "
          "for shift permutations on real life fat trees (2010); SimGrid 3.32 <cluster topology=\"FAT_TREE\">",
          fat_tree_host_count,
          build_fat_tree};
}

} // namespace mpisim::platform
