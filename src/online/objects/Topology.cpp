#include "online/objects/Topology.hpp"

#include <algorithm>
#include <functional>

namespace mpisim::online {

int cart_size(const std::vector<int>& dims)
{
  int size = 1;
  for (int d : dims)
    size *= d;
  return size;
}

std::vector<int> cart_coords(const Topology& cart, int rank)
{
  std::vector<int> coords(cart.dims.size());
  for (size_t d = cart.dims.size(); d-- > 0;) {
    coords[d] = rank % cart.dims[d];
    rank /= cart.dims[d];
  }
  return coords;
}

std::optional<int> cart_rank(const Topology& cart, std::vector<int> coords)
{
  int rank = 0;
  for (size_t d = 0; d < cart.dims.size(); ++d) {
    int& c = coords[d];
    if (cart.periods[d])
      c = ((c % cart.dims[d]) + cart.dims[d]) % cart.dims[d];
    else if (c < 0 || c >= cart.dims[d])
      return std::nullopt;
    rank = rank * cart.dims[d] + c;
  }
  return rank;
}

std::vector<int> graph_neighbors(const Topology& graph, int rank)
{
  const int begin = rank == 0 ? 0 : graph.index[rank - 1];
  return {graph.edges.begin() + begin, graph.edges.begin() + graph.index[rank]};
}

namespace {
// Cartesian neighbours in the order of MPI-3.1 section 7.6: for each dimension, the rank at -1 then the one at +1.
std::vector<int> cart_neighbors(const Topology& cart, int rank, int proc_null)
{
  std::vector<int> neighbors;
  const std::vector<int> coords = cart_coords(cart, rank);
  for (size_t d = 0; d < cart.dims.size(); ++d)
    for (int step : {-1, 1}) {
      std::vector<int> at = coords;
      at[d] += step;
      neighbors.push_back(cart_rank(cart, at).value_or(proc_null));
    }
  return neighbors;
}
constexpr int kProcNull = -2; // MPI_PROC_NULL
} // namespace

std::vector<int> topology_sources(const Topology& topology, int rank)
{
  switch (topology.kind) {
  case Topology::Kind::Cart: return cart_neighbors(topology, rank, kProcNull);
  case Topology::Kind::Graph: return graph_neighbors(topology, rank);
  case Topology::Kind::DistGraph: return topology.sources;
  }
  return {};
}

std::vector<int> topology_destinations(const Topology& topology, int rank)
{
  return topology.kind == Topology::Kind::DistGraph ? topology.destinations : topology_sources(topology, rank);
}

std::optional<std::vector<int>> dims_create(int nnodes, std::vector<int> dims)
{
  int fixed = 1, free_dims = 0;
  for (int d : dims)
    d > 0 ? fixed *= d : ++free_dims;
  if (nnodes % fixed != 0)
    return std::nullopt;
  const int remaining = nnodes / fixed;
  if (free_dims == 0)
    return remaining == 1 ? std::optional(dims) : std::nullopt;
  // Search the factorizations of `remaining` into `free_dims` non-increasing factors for the most balanced one: the
  // smallest spread (largest minus smallest factor), then the smallest spread of the factors after the first, and so
  // on. This agrees with MPICH's choices (the table of its test topo/dims5) in all but a few cases with large primes.
  std::vector<int> divisors, best, current; // divisors in decreasing order
  for (int f = 1; f <= remaining / f; ++f)
    if (remaining % f == 0) {
      divisors.push_back(f);
      if (f != remaining / f)
        divisors.push_back(remaining / f);
    }
  std::sort(divisors.rbegin(), divisors.rend());
  std::function<void(int, int)> search = [&](int left, int max_factor) {
    if (static_cast<int>(current.size()) == free_dims - 1) {
      if (left > max_factor)
        return;
      current.push_back(left);
      // Each factor's distance to the smallest one, compared from the largest factor down.
      auto spreads = [](const std::vector<int>& f) {
        std::vector<int> s;
        s.reserve(f.size());
        for (int factor : f)
          s.push_back(factor - f.back());
        return s;
      };
      if (best.empty() || spreads(current) < spreads(best))
        best = current;
      current.pop_back();
      return;
    }
    for (int factor : divisors)
      if (factor <= max_factor && left % factor == 0) {
        current.push_back(factor);
        search(left / factor, factor);
        current.pop_back();
      }
  };
  search(remaining, remaining);
  size_t next = 0;
  for (int& d : dims)
    if (d == 0)
      d = best[next++];
  return dims;
}

} // namespace mpisim::online
