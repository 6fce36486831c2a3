// Process topologies (MPI-3.1 chapter 7): the Cartesian, graph or distributed graph structure attached to a
// communicator, and the arithmetic on it. Ranks are the communicator's ranks.
#pragma once

#include <optional>
#include <vector>

namespace mpisim::online {

struct Topology {
  enum class Kind { Cart, Graph, DistGraph };
  Kind kind = Kind::Cart;
  // Cartesian: row-major numbering (the last dimension varies fastest).
  std::vector<int> dims;
  std::vector<int> periods; // 0 / 1 per dimension
  // Graph: MPI_Graph_create's arrays (index[i] = neighbours of ranks 0..i).
  std::vector<int> index;
  std::vector<int> edges;
  // Distributed graph: the calling rank's own neighbours (each rank knows only its own).
  std::vector<int> sources, source_weights;
  std::vector<int> destinations, destination_weights;
  bool weighted = false;
};

int cart_size(const std::vector<int>& dims); // product of the dimensions (1 for none)
std::vector<int> cart_coords(const Topology& cart, int rank);
// The rank at `coords`, wrapped on periodic dimensions; nullopt when a non-periodic coordinate is out of range.
std::optional<int> cart_rank(const Topology& cart, std::vector<int> coords);
// Neighbours of `rank` in a graph topology.
std::vector<int> graph_neighbors(const Topology& graph, int rank);
// The neighbour lists neighbourhood collectives use (MPI-3.1 section 7.6): sources (receive from) and destinations
// (send to), MPI_PROC_NULL included at non-periodic Cartesian edges.
std::vector<int> topology_sources(const Topology& topology, int rank);
std::vector<int> topology_destinations(const Topology& topology, int rank);

// MPI_Dims_create: fills the zero entries of `dims` so that their product times the fixed ones is `nnodes`, as
// balanced as possible, in non-increasing order. nullopt when the fixed entries do not divide `nnodes`.
std::optional<std::vector<int>> dims_create(int nnodes, std::vector<int> dims);

} // namespace mpisim::online
