// Process topologies (MPI-3.1 chapter 7): Cartesian, graph and distributed graph communicators and their queries.
// The topology is attached to each member's view of the new communicator and copied by MPI_Comm_dup. Rank
// reordering is never done (allowed: `reorder` is a hint).
#include "online/bindings/Arguments.hpp"
#include "online/objects/Collectives.hpp"
#include "online/objects/CommLifecycle.hpp"

#include <memory>

using namespace mpisim::online;
using TopologyPtr = std::shared_ptr<const Topology>;

namespace {
// The topology of the calling rank's `comm`, which must be of `kind`; raises MPI_ERR_TOPOLOGY otherwise.
int resolve_topology(Runtime& runtime, MPI_Comm comm, Topology::Kind kind, const char* call, TopologyPtr& out,
                     int* my_rank = nullptr)
{
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, call, c));
  out = runtime.comm_properties().topology(runtime.current_rank(), comm);
  static const char* const names[] = {"a Cartesian", "a graph", "a distributed graph"};
  if (out == nullptr || out->kind != kind)
    return raise_error(runtime, comm, MPI_ERR_TOPOLOGY, call,
                       "communicator " + std::to_string(comm) + " has no " + names[static_cast<int>(kind)] +
                           " topology");
  if (my_rank)
    *my_rank = c->local_rank(runtime.current_rank());
  return MPI_SUCCESS;
}

int check_rank(Runtime& runtime, MPI_Comm comm, int rank, int size, const char* call)
{
  if (rank < 0 || rank >= size)
    return raise_error(runtime, comm, MPI_ERR_RANK, call,
                       "invalid rank " + std::to_string(rank) + " in a communicator of " + std::to_string(size) +
                           " ranks");
  return MPI_SUCCESS;
}

int check_dims(Runtime& runtime, MPI_Comm comm, int ndims, const int dims[], const char* call)
{
  if (ndims < 0)
    return raise_error(runtime, comm, MPI_ERR_DIMS, call, "negative dimension count " + std::to_string(ndims));
  for (int d = 0; d < ndims; ++d)
    if (dims[d] <= 0)
      return raise_error(runtime, comm, MPI_ERR_DIMS, call,
                         "dimension " + std::to_string(d) + " has size " + std::to_string(dims[d]));
  return MPI_SUCCESS;
}

// Splits `comm` (checked by the caller) keeping the order of ranks: those with `color` MPI_UNDEFINED get
// MPI_COMM_NULL; the others get the topology.
int create_with_topology(Runtime& runtime, MPI_Comm comm, int color, Topology topology, MPI_Comm* newcomm)
{
  const mpisim::mpi::Communicator& parent = *runtime.comm(comm);
  *newcomm = split_comm(runtime, comm, parent, color, parent.local_rank(runtime.current_rank()));
  if (*newcomm != MPI_COMM_NULL)
    runtime.comm_properties().set_topology(runtime.current_rank(), *newcomm,
                                           std::make_shared<const Topology>(std::move(topology)));
  return MPI_SUCCESS;
}

// The communicator of the first `count` ranks of `comm` (checked by the caller), in order, with the topology; the
// others get MPI_COMM_NULL. Under SMPI, as it makes them: only the members send (they name the communicator);
// otherwise a split keeping the order.
int create_prefix_with_topology(Runtime& runtime, MPI_Comm comm, int count, Topology topology, MPI_Comm* newcomm)
{
  const mpisim::mpi::Communicator& parent = *runtime.comm(comm);
  const int rank = parent.local_rank(runtime.current_rank());
  if (creation_messages(runtime) == CreationMessages::ContextAgreement)
    return create_with_topology(runtime, comm, rank < count ? 0 : MPI_UNDEFINED, std::move(topology), newcomm);
  GroupMembers members;
  for (int r = 0; r < count; ++r)
    members.push_back(parent.world_rank(r));
  *newcomm = create_from_group(runtime, comm, parent, members);
  if (*newcomm != MPI_COMM_NULL)
    runtime.comm_properties().set_topology(runtime.current_rank(), *newcomm,
                                           std::make_shared<const Topology>(std::move(topology)));
  return MPI_SUCCESS;
}

Topology cartesian(int ndims, const int dims[], const int periods[])
{
  Topology cart;
  cart.kind = Topology::Kind::Cart;
  cart.dims.assign(dims, dims + ndims);
  for (int d = 0; d < ndims; ++d)
    cart.periods.push_back(periods[d] ? 1 : 0);
  return cart;
}
} // namespace

extern "C" int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, nnodes > 0, MPI_COMM_WORLD, MPI_ERR_ARG, "invalid node count " + std::to_string(nnodes));
  MPISIM_CHECK(runtime, ndims >= 0, MPI_COMM_WORLD, MPI_ERR_DIMS, "negative dimension count " + std::to_string(ndims));
  for (int d = 0; d < ndims; ++d)
    MPISIM_CHECK(runtime, dims[d] >= 0, MPI_COMM_WORLD, MPI_ERR_DIMS,
                 "dimension " + std::to_string(d) + " has size " + std::to_string(dims[d]));
  auto filled = dims_create(nnodes, std::vector<int>(dims, dims + ndims));
  MPISIM_CHECK(runtime, filled.has_value(), MPI_COMM_WORLD, MPI_ERR_DIMS,
               "the given dimensions do not divide " + std::to_string(nnodes));
  std::copy(filled->begin(), filled->end(), dims);
  return MPI_SUCCESS;
}

// Cartesian -----------------------------------------------------------------------------------------------------------

extern "C" int PMPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                                MPI_Comm* newcomm)
{
  Runtime& runtime = Runtime::get();
  (void)reorder;
  ApiScope scope(runtime);
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPI_Cart_create", parent));
  MPISIM_TRY(check_dims(runtime, comm, ndims, dims, "MPI_Cart_create"));
  const int size = cart_size(std::vector<int>(dims, dims + ndims));
  MPISIM_CHECK(runtime, size <= parent->size(), comm, MPI_ERR_TOPOLOGY,
               "a grid of " + std::to_string(size) + " ranks on a communicator of " + std::to_string(parent->size()));
  return create_prefix_with_topology(runtime, comm, size, cartesian(ndims, dims, periods), newcomm);
}

extern "C" int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
  Runtime& runtime = Runtime::get();
  TopologyPtr cart;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::Cart, "MPI_Cart_coords", cart));
  MPISIM_TRY(check_rank(runtime, comm, rank, cart_size(cart->dims), "MPI_Cart_coords"));
  MPISIM_CHECK(runtime, maxdims >= static_cast<int>(cart->dims.size()), comm, MPI_ERR_ARG,
               "maxdims " + std::to_string(maxdims) + " below the " + std::to_string(cart->dims.size()) +
                   " dimensions");
  const std::vector<int> c = cart_coords(*cart, rank);
  std::copy(c.begin(), c.end(), coords);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank)
{
  Runtime& runtime = Runtime::get();
  TopologyPtr cart;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::Cart, "MPI_Cart_rank", cart));
  auto found = cart_rank(*cart, std::vector<int>(coords, coords + cart->dims.size()));
  MPISIM_CHECK(runtime, found.has_value(), comm, MPI_ERR_ARG, "coordinates outside a non-periodic dimension");
  *rank = *found;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest)
{
  Runtime& runtime = Runtime::get();
  TopologyPtr cart;
  int me = 0;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::Cart, "MPI_Cart_shift", cart, &me));
  MPISIM_CHECK(runtime, direction >= 0 && direction < static_cast<int>(cart->dims.size()), comm, MPI_ERR_ARG,
               "direction " + std::to_string(direction) + " of a grid of " + std::to_string(cart->dims.size()) +
                   " dimensions");
  std::vector<int> coords = cart_coords(*cart, me);
  auto shifted = [&](int by) {
    std::vector<int> at = coords;
    at[direction] += by;
    return cart_rank(*cart, at).value_or(MPI_PROC_NULL);
  };
  *rank_source = shifted(-disp);
  *rank_dest = shifted(disp);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  TopologyPtr cart;
  int me = 0;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::Cart, "MPI_Cart_sub", cart, &me));
  // Ranks agreeing on the dropped coordinates form one sub-grid; the color numbers those coordinates.
  const std::vector<int> coords = cart_coords(*cart, me);
  Topology sub;
  sub.kind = Topology::Kind::Cart;
  int color = 0;
  for (size_t d = 0; d < cart->dims.size(); ++d)
    if (remain_dims[d]) {
      sub.dims.push_back(cart->dims[d]);
      sub.periods.push_back(cart->periods[d]);
    } else {
      color = color * cart->dims[d] + coords[d];
    }
  // Every dimension dropped: a zero-dimensional grid has one process, so (as MPICH and SMPI do) rank 0 gets a
  // communicator of its own and the others MPI_COMM_NULL, as MPI_Cart_create with ndims = 0 would give.
  if (sub.dims.empty())
    return create_prefix_with_topology(runtime, comm, 1, std::move(sub), newcomm);
  return create_with_topology(runtime, comm, color, std::move(sub), newcomm);
}

extern "C" int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
  Runtime& runtime = Runtime::get();
  TopologyPtr cart;
  int me = 0;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::Cart, "MPI_Cart_get", cart, &me));
  const std::vector<int> c = cart_coords(*cart, me);
  for (int d = 0; d < maxdims && d < static_cast<int>(c.size()); ++d) {
    dims[d] = cart->dims[d];
    periods[d] = cart->periods[d];
    coords[d] = c[d];
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cartdim_get(MPI_Comm comm, int* ndims)
{
  Runtime& runtime = Runtime::get();
  TopologyPtr cart;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::Cart, "MPI_Cartdim_get", cart));
  *ndims = static_cast<int>(cart->dims.size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank)
{
  Runtime& runtime = Runtime::get();
  (void)periods;
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPI_Cart_map", c));
  MPISIM_TRY(check_dims(runtime, comm, ndims, dims, "MPI_Cart_map"));
  const int size = cart_size(std::vector<int>(dims, dims + ndims));
  MPISIM_CHECK(runtime, size <= c->size(), comm, MPI_ERR_DIMS,
               "a grid of " + std::to_string(size) + " ranks on a communicator of " + std::to_string(c->size()));
  const int rank = c->local_rank(runtime.current_rank());
  *newrank = rank < size ? rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

// Graphs --------------------------------------------------------------------------------------------------------------

namespace {
int check_graph(Runtime& runtime, MPI_Comm comm, int nnodes, const int index[], const int edges[], int size,
                const char* call)
{
  if (nnodes < 0 || nnodes > size)
    return raise_error(runtime, comm, MPI_ERR_ARG, call,
                       "a graph of " + std::to_string(nnodes) + " nodes on a communicator of " + std::to_string(size));
  for (int i = 0; i < nnodes; ++i)
    if (index[i] < (i == 0 ? 0 : index[i - 1]))
      return raise_error(runtime, comm, MPI_ERR_ARG, call, "index[" + std::to_string(i) + "] decreases");
  for (int e = 0; e < (nnodes == 0 ? 0 : index[nnodes - 1]); ++e)
    if (edges[e] < 0 || edges[e] >= nnodes)
      return raise_error(runtime, comm, MPI_ERR_ARG, call,
                         "edge to node " + std::to_string(edges[e]) + " of a graph of " + std::to_string(nnodes));
  return MPI_SUCCESS;
}
} // namespace

extern "C" int PMPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                                 MPI_Comm* newcomm)
{
  Runtime& runtime = Runtime::get();
  (void)reorder;
  ApiScope scope(runtime);
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPI_Graph_create", parent));
  MPISIM_TRY(check_graph(runtime, comm, nnodes, index, edges, parent->size(), "MPI_Graph_create"));
  Topology graph;
  graph.kind = Topology::Kind::Graph;
  graph.index.assign(index, index + nnodes);
  graph.edges.assign(edges, edges + (nnodes == 0 ? 0 : index[nnodes - 1]));
  return create_prefix_with_topology(runtime, comm, nnodes, std::move(graph), newcomm);
}

extern "C" int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
  Runtime& runtime = Runtime::get();
  TopologyPtr graph;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::Graph, "MPI_Graph_get", graph));
  for (int i = 0; i < maxindex && i < static_cast<int>(graph->index.size()); ++i)
    index[i] = graph->index[i];
  for (int e = 0; e < maxedges && e < static_cast<int>(graph->edges.size()); ++e)
    edges[e] = graph->edges[e];
  return MPI_SUCCESS;
}

extern "C" int PMPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges)
{
  Runtime& runtime = Runtime::get();
  TopologyPtr graph;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::Graph, "MPI_Graphdims_get", graph));
  *nnodes = static_cast<int>(graph->index.size());
  *nedges = static_cast<int>(graph->edges.size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors)
{
  Runtime& runtime = Runtime::get();
  TopologyPtr graph;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::Graph, "MPI_Graph_neighbors_count", graph));
  MPISIM_TRY(check_rank(runtime, comm, rank, static_cast<int>(graph->index.size()), "MPI_Graph_neighbors_count"));
  *nneighbors = static_cast<int>(graph_neighbors(*graph, rank).size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
  Runtime& runtime = Runtime::get();
  TopologyPtr graph;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::Graph, "MPI_Graph_neighbors", graph));
  MPISIM_TRY(check_rank(runtime, comm, rank, static_cast<int>(graph->index.size()), "MPI_Graph_neighbors"));
  const std::vector<int> found = graph_neighbors(*graph, rank);
  for (int i = 0; i < maxneighbors && i < static_cast<int>(found.size()); ++i)
    neighbors[i] = found[i];
  return MPI_SUCCESS;
}

extern "C" int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPI_Graph_map", c));
  MPISIM_TRY(check_graph(runtime, comm, nnodes, index, edges, c->size(), "MPI_Graph_map"));
  const int rank = c->local_rank(runtime.current_rank());
  *newrank = rank < nnodes ? rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Topo_test(MPI_Comm comm, int* status)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Topo_test", c));
  TopologyPtr topology = runtime.comm_properties().topology(runtime.current_rank(), comm);
  static const int kinds[] = {MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH};
  *status = topology ? kinds[static_cast<int>(topology->kind)] : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

// Distributed graphs --------------------------------------------------------------------------------------------------

namespace {
int check_neighbors(Runtime& runtime, MPI_Comm comm, int degree, const int ranks[], int size, const char* call)
{
  if (degree < 0)
    return raise_error(runtime, comm, MPI_ERR_ARG, call, "negative degree " + std::to_string(degree));
  for (int i = 0; i < degree; ++i)
    MPISIM_TRY(check_rank(runtime, comm, ranks[i], size, call));
  return MPI_SUCCESS;
}

std::vector<int> weights_of(const int weights[], int degree)
{
  if (weights == MPI_UNWEIGHTED || weights == MPI_WEIGHTS_EMPTY || degree == 0)
    return std::vector<int>(static_cast<size_t>(degree), 1);
  return {weights, weights + degree};
}
} // namespace

extern "C" int PMPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                               const int sourceweights[], int outdegree, const int destinations[],
                                               const int destweights[], MPI_Info info, int reorder, MPI_Comm* newcomm)
{
  Runtime& runtime = Runtime::get();
  (void)info, (void)reorder;
  ApiScope scope(runtime);
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPI_Dist_graph_create_adjacent", parent));
  MPISIM_TRY(check_neighbors(runtime, comm, indegree, sources, parent->size(), "MPI_Dist_graph_create_adjacent"));
  MPISIM_TRY(check_neighbors(runtime, comm, outdegree, destinations, parent->size(), "MPI_Dist_graph_create_adjacent"));
  Topology graph;
  graph.kind = Topology::Kind::DistGraph;
  graph.sources.assign(sources, sources + indegree);
  graph.destinations.assign(destinations, destinations + outdegree);
  graph.source_weights = weights_of(sourceweights, indegree);
  graph.destination_weights = weights_of(destweights, outdegree);
  graph.weighted = sourceweights != MPI_UNWEIGHTED;
  return create_prefix_with_topology(runtime, comm, parent->size(), std::move(graph), newcomm);
}

extern "C" int PMPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                                      const int destinations[], const int weights[], MPI_Info info, int reorder,
                                      MPI_Comm* newcomm)
{
  Runtime& runtime = Runtime::get();
  (void)info, (void)reorder;
  ApiScope scope(runtime);
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPI_Dist_graph_create", parent));
  MPISIM_CHECK(runtime, n >= 0, comm, MPI_ERR_ARG, "negative source count " + std::to_string(n));
  // This rank's edges as (source, destination, weight), then everyone's, gathered in rank order.
  std::vector<int> mine;
  for (int i = 0, edge = 0; i < n; ++i) {
    MPISIM_TRY(check_neighbors(runtime, comm, 1, &sources[i], parent->size(), "MPI_Dist_graph_create"));
    MPISIM_TRY(
        check_neighbors(runtime, comm, degrees[i], &destinations[edge], parent->size(), "MPI_Dist_graph_create"));
    for (int d = 0; d < degrees[i]; ++d, ++edge)
      mine.insert(mine.end(), {sources[i], destinations[edge], weights == MPI_UNWEIGHTED ? 1 : weights[edge]});
  }
  const int size = parent->size();
  std::vector<int> counts(static_cast<size_t>(size)), displs(static_cast<size_t>(size));
  int my_count = static_cast<int>(mine.size());
  run_allgather(scope.runtime(), *parent, &my_count, counts.data(), 1, MPI_INT);
  for (int r = 1; r < size; ++r)
    displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<int> all(static_cast<size_t>(displs[size - 1] + counts[size - 1]));
  run_allgatherv(scope.runtime(), *parent, mine.data(), my_count, all.data(), counts.data(), displs.data(), MPI_INT);
  const int me = parent->local_rank(scope.runtime().current_rank());
  Topology graph;
  graph.kind = Topology::Kind::DistGraph;
  graph.weighted = weights != MPI_UNWEIGHTED;
  for (size_t e = 0; e + 2 < all.size(); e += 3) {
    if (all[e + 1] == me) {
      graph.sources.push_back(all[e]);
      graph.source_weights.push_back(all[e + 2]);
    }
    if (all[e] == me) {
      graph.destinations.push_back(all[e + 1]);
      graph.destination_weights.push_back(all[e + 2]);
    }
  }
  return create_prefix_with_topology(runtime, comm, size, std::move(graph), newcomm);
}

extern "C" int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted)
{
  Runtime& runtime = Runtime::get();
  TopologyPtr graph;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::DistGraph, "MPI_Dist_graph_neighbors_count", graph));
  *indegree = static_cast<int>(graph->sources.size());
  *outdegree = static_cast<int>(graph->destinations.size());
  *weighted = graph->weighted;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                         int maxoutdegree, int destinations[], int destweights[])
{
  Runtime& runtime = Runtime::get();
  TopologyPtr graph;
  MPISIM_TRY(resolve_topology(runtime, comm, Topology::Kind::DistGraph, "MPI_Dist_graph_neighbors", graph));
  const bool weights_wanted = graph->weighted && sourceweights != MPI_UNWEIGHTED;
  for (int i = 0; i < maxindegree && i < static_cast<int>(graph->sources.size()); ++i) {
    sources[i] = graph->sources[i];
    if (weights_wanted)
      sourceweights[i] = graph->source_weights[i];
  }
  for (int i = 0; i < maxoutdegree && i < static_cast<int>(graph->destinations.size()); ++i) {
    destinations[i] = graph->destinations[i];
    if (weights_wanted && destweights != MPI_UNWEIGHTED)
      destweights[i] = graph->destination_weights[i];
  }
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Dims_create)
MPISIM_ALIAS(Cart_create)
MPISIM_ALIAS(Cart_coords)
MPISIM_ALIAS(Cart_rank)
MPISIM_ALIAS(Cart_shift)
MPISIM_ALIAS(Cart_sub)
MPISIM_ALIAS(Cart_get)
MPISIM_ALIAS(Cartdim_get)
MPISIM_ALIAS(Cart_map)
MPISIM_ALIAS(Graph_create)
MPISIM_ALIAS(Graph_get)
MPISIM_ALIAS(Graphdims_get)
MPISIM_ALIAS(Graph_neighbors_count)
MPISIM_ALIAS(Graph_neighbors)
MPISIM_ALIAS(Graph_map)
MPISIM_ALIAS(Topo_test)
MPISIM_ALIAS(Dist_graph_create_adjacent)
MPISIM_ALIAS(Dist_graph_create)
MPISIM_ALIAS(Dist_graph_neighbors_count)
MPISIM_ALIAS(Dist_graph_neighbors)
