/* Process topologies: MPI_Dims_create, a periodic/non-periodic Cartesian grid (coordinates, shifts, sub-grids,
 * duplication), a ring graph, distributed graphs (adjacent and general), neighbourhood collectives (blocking and
 * non-blocking). Every rank checks its results and prints what it found; the lines are the same under any MPI. With the
 * argument "errors", rank 0 prints the error classes of invalid calls. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size, failures = 0;
#define EXPECT(condition)                                                                                              \
  do {                                                                                                                 \
    if (!(condition)) {                                                                                                \
      printf("rank %d: FAILED line %d: %s\n", rank, __LINE__, #condition);                                             \
      ++failures;                                                                                                      \
    }                                                                                                                  \
  } while (0)

static void dims(void)
{
  static const int cases[][5] = {/* nnodes, ndims, preset dims... */
                                 {6, 2, 0, 0, 0},  {12, 2, 0, 0, 0}, {12, 3, 0, 0, 0}, {16, 3, 0, 0, 0},
                                 {36, 3, 0, 0, 0}, {7, 2, 0, 0, 0},  {24, 3, 0, 3, 0}, {64, 3, 0, 0, 0},
                                 {1, 3, 0, 0, 0},  {30, 3, 0, 0, 0}, {20, 2, 0, 5, 0}, {100, 3, 0, 0, 0}};
  if (rank != 0)
    return;
  for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    int d[3] = {cases[c][2], cases[c][3], cases[c][4]};
    MPI_Dims_create(cases[c][0], cases[c][1], d);
    printf("dims_create(%d, %d):", cases[c][0], cases[c][1]);
    for (int i = 0; i < cases[c][1]; ++i)
      printf(" %d", d[i]);
    printf("\n");
  }
}

static void cartesian(void)
{
  int d[2] = {0, 0}, periods[2] = {1, 0}, coords[2], status, ndims;
  MPI_Dims_create(size, 2, d);
  MPI_Comm grid, dup, row;
  MPI_Cart_create(MPI_COMM_WORLD, 2, d, periods, 0, &grid);
  MPI_Topo_test(grid, &status);
  MPI_Cartdim_get(grid, &ndims);
  EXPECT(status == MPI_CART && ndims == 2);
  int me;
  MPI_Comm_rank(grid, &me);
  MPI_Cart_coords(grid, me, 2, coords);
  int back;
  MPI_Cart_rank(grid, coords, &back);
  EXPECT(back == me);
  int up, down, left, right;
  MPI_Cart_shift(grid, 0, 1, &up, &down);
  MPI_Cart_shift(grid, 1, 1, &left, &right);
  printf("rank %d: grid %dx%d at (%d,%d); dim 0 (periodic) from %d to %d; dim 1 from %d to %d\n", rank, d[0], d[1],
         coords[0], coords[1], up, down, left, right);
  int wrapped[2] = {coords[0] + d[0], coords[1]};
  MPI_Cart_rank(grid, wrapped, &back);
  EXPECT(back == me);
  int gd[2], gp[2], gc[2];
  MPI_Cart_get(grid, 2, gd, gp, gc);
  EXPECT(gd[0] == d[0] && gd[1] == d[1] && gp[0] == 1 && gp[1] == 0 && gc[0] == coords[0] && gc[1] == coords[1]);

  MPI_Comm_dup(grid, &dup); /* the topology goes with the duplicate */
  MPI_Topo_test(dup, &status);
  EXPECT(status == MPI_CART);
  int keep[2] = {0, 1}, row_rank, row_size;
  MPI_Cart_sub(grid, keep, &row);
  MPI_Comm_rank(row, &row_rank);
  MPI_Comm_size(row, &row_size);
  MPI_Cartdim_get(row, &ndims);
  printf("rank %d: row of %d ranks, rank %d there, %d dimension(s)\n", rank, row_size, row_rank, ndims);

  /* Neighbourhood allgather on the grid: the ranks at -1 and +1 of each dimension (MPI_PROC_NULL leaves -1). */
  int got[4] = {-1, -1, -1, -1};
  MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, grid);
  printf("rank %d: neighbour allgather gives %d %d %d %d\n", rank, got[0], got[1], got[2], got[3]);
  int sent[4] = {100 * rank, 100 * rank + 1, 100 * rank + 2, 100 * rank + 3};
  MPI_Neighbor_alltoall(sent, 1, MPI_INT, got, 1, MPI_INT, grid);
  printf("rank %d: neighbour alltoall gives %d %d %d %d\n", rank, got[0], got[1], got[2], got[3]);
  /* The same non-blocking, two in flight with a blocking one between them: none takes another's messages. */
  int i_all[4] = {-1, -1, -1, -1}, i_gather[4] = {-1, -1, -1, -1}, between[4] = {-1, -1, -1, -1}, ten = 10 * rank;
  MPI_Request both[2];
  MPI_Ineighbor_alltoall(sent, 1, MPI_INT, i_all, 1, MPI_INT, grid, &both[0]);
  MPI_Ineighbor_allgather(&ten, 1, MPI_INT, i_gather, 1, MPI_INT, grid, &both[1]);
  MPI_Neighbor_allgather(&rank, 1, MPI_INT, between, 1, MPI_INT, grid);
  MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
  printf("rank %d: ineighbour allgather gives %d %d %d %d, between %d %d %d %d\n", rank, i_gather[0], i_gather[1],
         i_gather[2], i_gather[3], between[0], between[1], between[2], between[3]);
  /* Apart: on a periodic dimension of size 1 or 2, Open MPI 4.1's non-blocking form pairs the two blocks the other way
   * round from its blocking form (tests/python/test_online.py compares this line with the blocking one). */
  printf("rank %d: ineighbour alltoall on the periodic grid gives %d %d %d %d\n", rank, i_all[0], i_all[1], i_all[2],
         i_all[3]);
  MPI_Comm_free(&row);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&grid);

  /* A line one rank shorter than the world: the last rank is left out. */
  if (size > 1) {
    int line_dims[1] = {size - 1}, line_periods[1] = {0}, newrank;
    MPI_Comm line;
    MPI_Cart_create(MPI_COMM_WORLD, 1, line_dims, line_periods, 1, &line);
    MPI_Cart_map(MPI_COMM_WORLD, 1, line_dims, line_periods, &newrank);
    EXPECT((line == MPI_COMM_NULL) == (rank == size - 1));
    if (rank < size - 1)
      EXPECT(newrank == rank);
#ifdef MPISIM /* Open MPI 4.1 answers another rank than MPI_UNDEFINED for a process outside the grid */
    else
      EXPECT(newrank == MPI_UNDEFINED);
#endif
    if (line != MPI_COMM_NULL)
      MPI_Comm_free(&line);
  }
}

static void graph(void)
{
  /* A ring: node i is joined to i-1 and i+1 (once when they are the same). */
  int index[64], edges[128], nedges = 0;
  for (int i = 0; i < size; ++i) {
    int l = (i + size - 1) % size, r = (i + 1) % size;
    if (size > 1)
      edges[nedges++] = l;
    if (size > 2)
      edges[nedges++] = r;
    index[i] = nedges;
  }
  MPI_Comm ring;
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &ring);
  int status, nnodes, n, count, neighbors[2] = {-1, -1};
  MPI_Topo_test(ring, &status);
  MPI_Graphdims_get(ring, &nnodes, &n);
  EXPECT(status == MPI_GRAPH && nnodes == size && n == nedges);
  MPI_Graph_neighbors_count(ring, rank, &count);
  MPI_Graph_neighbors(ring, rank, 2, neighbors);
  printf("rank %d: ring graph, %d neighbour(s): %d %d\n", rank, count, neighbors[0], count > 1 ? neighbors[1] : -1);
  int got_index[64], got_edges[128];
  MPI_Graph_get(ring, size, nedges, got_index, got_edges);
  EXPECT(memcmp(got_index, index, size * sizeof(int)) == 0 && memcmp(got_edges, edges, nedges * sizeof(int)) == 0);
  int newrank;
  MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &newrank);
  EXPECT(newrank == rank);
  MPI_Comm_free(&ring);
}

static void distributed_graph(void)
{
  /* Adjacent: each rank receives from its left and sends to its right, with weights. */
  int left = (rank + size - 1) % size, right = (rank + 1) % size, in_weight = rank, out_weight = 10 + rank;
  MPI_Comm adjacent, general;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &in_weight, 1, &right, &out_weight, MPI_INFO_NULL, 0,
                                 &adjacent);
  int status, indegree, outdegree, weighted, source, sw, destination, dw;
  MPI_Topo_test(adjacent, &status);
  MPI_Dist_graph_neighbors_count(adjacent, &indegree, &outdegree, &weighted);
  EXPECT(status == MPI_DIST_GRAPH && indegree == 1 && outdegree == 1 && weighted);
  MPI_Dist_graph_neighbors(adjacent, 1, &source, &sw, 1, &destination, &dw);
  printf("rank %d: adjacent graph from %d (weight %d) to %d (weight %d)\n", rank, source, sw, destination, dw);
  int sent[1] = {1000 + rank}, got[1] = {-1};
  MPI_Neighbor_alltoall(sent, 1, MPI_INT, got, 1, MPI_INT, adjacent);
  printf("rank %d: adjacent graph alltoall gives %d\n", rank, got[0]);
  int w_counts[1] = {1};
  MPI_Aint w_displs[1] = {0};
  MPI_Datatype w_types[1] = {MPI_INT};
  got[0] = -1;
  MPI_Neighbor_alltoallw(sent, w_counts, w_displs, w_types, got, w_counts, w_displs, w_types, adjacent);
  EXPECT(got[0] == 1000 + left);
  MPI_Request request;
  got[0] = -1;
  MPI_Ineighbor_alltoallw(sent, w_counts, w_displs, w_types, got, w_counts, w_displs, w_types, adjacent, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  EXPECT(got[0] == 1000 + left && request == MPI_REQUEST_NULL);

  /* General: rank 0 gives every edge i -> i + 2 (mod size); the others give none. */
  int sources[64], degrees[64], destinations[64];
  for (int i = 0; i < size; ++i) {
    sources[i] = i;
    degrees[i] = 1;
    destinations[i] = (i + 2) % size;
  }
  MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? size : 0, sources, degrees, destinations, MPI_UNWEIGHTED,
                        MPI_INFO_NULL, 0, &general);
  MPI_Dist_graph_neighbors_count(general, &indegree, &outdegree, &weighted);
  MPI_Dist_graph_neighbors(general, 1, &source, MPI_UNWEIGHTED, 1, &destination, MPI_UNWEIGHTED);
  printf("rank %d: general graph, in %d out %d weighted %d, from %d to %d\n", rank, indegree, outdegree, weighted,
         source, destination);
  int counts[1] = {1}, displs[1] = {0};
  MPI_Neighbor_allgatherv(sent, 1, MPI_INT, got, counts, displs, MPI_INT, general);
  EXPECT(got[0] == 1000 + (rank + size - 2) % size);
  MPI_Neighbor_alltoallv(sent, counts, displs, MPI_INT, got, counts, displs, MPI_INT, general);
  EXPECT(got[0] == 1000 + (rank + size - 2) % size);
  int got_v[1] = {-1}, flag = 0;
  got[0] = -1;
  MPI_Request requests[2];
  MPI_Ineighbor_allgatherv(sent, 1, MPI_INT, got, counts, displs, MPI_INT, general, &requests[0]);
  MPI_Ineighbor_alltoallv(sent, counts, displs, MPI_INT, got_v, counts, displs, MPI_INT, general, &requests[1]);
  while (!flag)
    MPI_Testall(2, requests, &flag, MPI_STATUSES_IGNORE);
  EXPECT(got[0] == 1000 + (rank + size - 2) % size && got_v[0] == 1000 + (rank + size - 2) % size);
  MPI_Comm_free(&general);
  MPI_Comm_free(&adjacent);
}

static const char* class_name(int code)
{
  int error_class;
  MPI_Error_class(code, &error_class);
  switch (error_class) {
  case MPI_SUCCESS: return "MPI_SUCCESS";
  case MPI_ERR_TOPOLOGY: return "MPI_ERR_TOPOLOGY";
  case MPI_ERR_DIMS: return "MPI_ERR_DIMS";
  case MPI_ERR_ARG: return "MPI_ERR_ARG";
  case MPI_ERR_RANK: return "MPI_ERR_RANK";
  default: return "another class";
  }
}

static void errors(void)
{
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int d[2] = {-1, 2}, periods[2] = {0, 0}, coords[2], source, dest, n;
  MPI_Comm grid;
  if (rank != 0)
    return;
  printf("cart_create with a negative dimension: %s\n",
         class_name(MPI_Cart_create(MPI_COMM_SELF, 2, d, periods, 0, &grid)));
  d[0] = 2;
  printf("cart_create larger than the communicator: %s\n",
         class_name(MPI_Cart_create(MPI_COMM_SELF, 2, d, periods, 0, &grid)));
  printf("cart_coords without a topology: %s\n", class_name(MPI_Cart_coords(MPI_COMM_SELF, 0, 2, coords)));
  int fixed[2] = {4, 0};
  printf("dims_create(6, 2) with 4 fixed: %s\n", class_name(MPI_Dims_create(6, 2, fixed)));
  int one[1] = {1};
  MPI_Cart_create(MPI_COMM_SELF, 1, one, periods, 0, &grid);
  MPI_Comm_set_errhandler(grid, MPI_ERRORS_RETURN);
  printf("cart_shift in direction 1 of 1: %s\n", class_name(MPI_Cart_shift(grid, 1, 1, &source, &dest)));
  printf("cart_coords of rank 1 of 1: %s\n", class_name(MPI_Cart_coords(grid, 1, 1, coords)));
  printf("graph_neighbors_count on a grid: %s\n", class_name(MPI_Graph_neighbors_count(grid, 0, &n)));
  MPI_Comm_free(&grid);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "errors") == 0) {
    errors();
    MPI_Finalize();
    return 0;
  }
  int status;
  MPI_Topo_test(MPI_COMM_WORLD, &status);
  EXPECT(status == MPI_UNDEFINED);
  dims();
  cartesian();
  graph();
  distributed_graph();
  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("topology: %d failures\n", total);
  MPI_Finalize();
  return 0;
}
