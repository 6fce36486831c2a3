// Dijkstra routing: routes listed in the file are graph edges weighted by their number of links;
// a shortest path is computed per source when first asked for, then kept (SimGrid's "Dijkstra"
// recomputes it each time and "DijkstraCache" keeps it: the routes are the same, so both keep it
// here). Graph nodes are numbered in order of first appearance in a route and the queue pops
// (cost, node) in increasing order with strict improvement only, as SimGrid 3.32 DijkstraZone
// does, so equal-length alternatives resolve to the same route.
//
// Link order is SimGrid's too, odd as it is: SimGrid builds the path from the destination back,
// inserting each edge's links, reversed, at the front of the route built so far, including links
// that the enclosing zones had already put there. So a declared route "a b" is crossed as "b a",
// and in a hierarchy the links of a Dijkstra zone reached last come first. The order of links
// does not change simulated times (sharing and latency do not depend on it); keeping it makes
// routes comparable link for link with SimGrid's.
//
// Deliberate differences from SimGrid 3.32, which only matter where SimGrid misbehaves: nodes
// unreachable from the source are not relaxed (SimGrid adds their infinite cost to edge weights
// and wraps around, which can corrupt routes in asymmetric graphs), and consecutive zone routes
// with different gateways are joined by the route between those gateways (SimGrid dereferences
// null gateways there).
#include "common/Errors.hpp"
#include "platform/PlatformBuilder.hpp"
#include "platform/routing/Registry.hpp"

#include <algorithm>
#include <mutex>
#include <queue>
#include <unordered_map>

namespace mpisim::platform {
namespace {

class DijkstraRouting final : public Zone {
public:
  DijkstraRouting(const std::string& name, const std::string& routing) : Zone(name, routing) {}

  void add_route(const RouteDeclaration& route, const RouteContext& context) override
  {
    check_routed_declaration(route, context);
    const uint32_t src = context.point(route.src).member;
    const uint32_t dst = context.point(route.dst).member;
    add_edge(src, dst, {route.forward_links(), route.gw_src, route.gw_dst}, context);
    if (route.symmetrical)
      add_edge(dst, src, {route.backward_links(), route.gw_dst, route.gw_src}, context);
  }

  void seal(PlatformBuilder& builder) override
  {
    if (has_children())
      return;
    for (uint32_t node = 0; node < edges_.size(); node++) {
      if (find_edge(node, node) == nullptr)
        edges_[node].push_back({node, StoredRoute{{builder.global_loopback()}, kNoPoint, kNoPoint}});
    }
  }

  // All needed members are connected both ways iff each reaches the first one and is reached from
  // it: two graph searches instead of one shortest-path tree per member.
  std::optional<std::pair<uint32_t, uint32_t>> find_missing_route(const std::vector<bool>& needed) const override
  {
    auto first = std::find(needed.begin(), needed.end(), true);
    if (first == needed.end())
      return std::nullopt;
    const auto hub = static_cast<uint32_t>(first - needed.begin());
    if (node_of(hub) == kNotInGraph)
      return std::make_pair(hub, hub);
    std::vector<std::vector<uint32_t>> forward(edges_.size());
    std::vector<std::vector<uint32_t>> backward(edges_.size());
    for (uint32_t node = 0; node < edges_.size(); node++) {
      for (const auto& edge : edges_[node]) {
        forward[node].push_back(edge.target);
        backward[edge.target].push_back(node);
      }
    }
    const std::vector<bool> from_hub = reachable(forward, node_of(hub));
    const std::vector<bool> to_hub = reachable(backward, node_of(hub));
    for (uint32_t member = 0; member < needed.size(); member++) {
      if (!needed[member] || member == hub)
        continue;
      if (node_of(member) == kNotInGraph || !from_hub[node_of(member)])
        return std::make_pair(hub, member);
      if (!to_hub[node_of(member)])
        return std::make_pair(member, hub);
    }
    return std::nullopt;
  }

  Gateways local_route(uint32_t src, uint32_t dst, const RouteContext& context,
                       std::vector<LinkId>& links) const override
  {
    auto no_path = [&]() {
      return InputError("", 0,
                        "zone '" + name() + "' (" + routing() + ") has no path from '" +
                            context.point(members()[src]).name + "' to '" + context.point(members()[dst]).name + "'");
    };
    const uint32_t src_node = node_of(src);
    const uint32_t dst_node = node_of(dst);
    if (src_node == kNotInGraph || dst_node == kNotInGraph)
      throw no_path();

    std::vector<const StoredRoute*> path; // from dst back to src
    if (src_node == dst_node) {
      const StoredRoute* self = find_edge(src_node, src_node);
      if (self == nullptr)
        throw no_path();
      path.push_back(self);
    } else {
      const std::vector<int64_t>& previous = predecessors(src_node);
      for (uint32_t node = dst_node; node != src_node;) {
        if (previous[node] < 0)
          throw no_path();
        const auto from = static_cast<uint32_t>(previous[node]);
        path.push_back(find_edge(from, node));
        node = from;
      }
    }

    // path[0] is the edge reaching dst: process it first, each time inserting at the front.
    Gateways gateways;
    if (has_children()) {
      gateways.src = path.back()->gw_src;
      gateways.dst = path.front()->gw_dst;
    }
    for (size_t i = 0; i < path.size(); i++) {
      if (has_children() && i > 0 && path[i]->gw_dst != path[i - 1]->gw_src) {
        std::vector<LinkId> between;
        context.append_route(path[i]->gw_dst, path[i - 1]->gw_src, between);
        links.insert(links.begin(), between.begin(), between.end());
      }
      links.insert(links.begin(), path[i]->links.rbegin(), path[i]->links.rend());
    }
    return gateways;
  }

private:
  struct Edge {
    uint32_t target;
    StoredRoute route;
  };
  static constexpr uint32_t kNotInGraph = std::numeric_limits<uint32_t>::max();
  static constexpr int64_t kUnreached = -1;

  uint32_t node_of(uint32_t member) const
  {
    return member < node_of_member_.size() ? node_of_member_[member] : kNotInGraph;
  }

  uint32_t node_for(uint32_t member)
  {
    if (node_of_member_.size() <= member)
      node_of_member_.resize(member + 1, kNotInGraph);
    if (node_of_member_[member] == kNotInGraph) {
      node_of_member_[member] = static_cast<uint32_t>(edges_.size());
      edges_.emplace_back();
    }
    return node_of_member_[member];
  }

  const StoredRoute* find_edge(uint32_t from, uint32_t to) const
  {
    for (const auto& edge : edges_[from])
      if (edge.target == to)
        return &edge.route;
    return nullptr;
  }

  void add_edge(uint32_t src, uint32_t dst, StoredRoute route, const RouteContext& context)
  {
    const uint32_t from = node_for(src);
    const uint32_t to = node_for(dst);
    if (find_edge(from, to) != nullptr)
      throw InputError("", 0,
                       "duplicate route from '" + context.point(members()[src]).name + "' to '" +
                           context.point(members()[dst]).name + "' in zone '" + name() +
                           "' (routes are symmetrical by default: a route and its reverse are declared once)");
    edges_[from].push_back({to, std::move(route)});
  }

  static std::vector<bool> reachable(const std::vector<std::vector<uint32_t>>& adjacency, uint32_t start)
  {
    std::vector<bool> seen(adjacency.size(), false);
    std::vector<uint32_t> stack{start};
    seen[start] = true;
    while (!stack.empty()) {
      const uint32_t node = stack.back();
      stack.pop_back();
      for (uint32_t next : adjacency[node]) {
        if (!seen[next]) {
          seen[next] = true;
          stack.push_back(next);
        }
      }
    }
    return seen;
  }

  // Predecessor of every node on the shortest paths from `source` (kUnreached when none).
  const std::vector<int64_t>& predecessors(uint32_t source) const
  {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    auto [cached, inserted] = cache_.try_emplace(source);
    if (!inserted)
      return cached->second;
    std::vector<int64_t>& previous = cached->second;
    std::vector<uint64_t> cost(edges_.size(), std::numeric_limits<uint64_t>::max());
    previous.assign(edges_.size(), kUnreached);
    using Entry = std::pair<uint64_t, uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    cost[source] = 0;
    queue.emplace(0, source);
    while (!queue.empty()) {
      auto [reached, node] = queue.top();
      queue.pop();
      if (reached > cost[node])
        continue; // stale entry: relaxing again would change nothing
      for (const auto& edge : edges_[node]) {
        const uint64_t through = cost[node] + edge.route.links.size();
        if (through < cost[edge.target]) {
          cost[edge.target] = through;
          previous[edge.target] = node;
          queue.emplace(through, edge.target);
        }
      }
    }
    return previous;
  }

  std::vector<uint32_t> node_of_member_;
  std::vector<std::vector<Edge>> edges_; // by node, in declaration order
  mutable std::mutex cache_mutex_;
  mutable std::unordered_map<uint32_t, std::vector<int64_t>> cache_;
};

} // namespace

ZoneRoutingEntry dijkstra_routing_entry()
{
  return {"Dijkstra", "shortest paths (fewest links) over the listed routes, computed per source on demand",
          "Dijkstra's algorithm, as in SimGrid 3.32 DijkstraZone",
          [](const std::string& name) { return std::make_unique<DijkstraRouting>(name, "Dijkstra"); }};
}

ZoneRoutingEntry dijkstra_cache_routing_entry()
{
  return {"DijkstraCache", "same routes as Dijkstra (mpisim always keeps the computed paths)",
          "Dijkstra's algorithm, as in SimGrid 3.32 DijkstraZone with cache",
          [](const std::string& name) { return std::make_unique<DijkstraRouting>(name, "DijkstraCache"); }};
}

} // namespace mpisim::platform
