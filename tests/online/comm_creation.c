/* Times every communicator constructor SimGrid 3.32 implements, on every rank, with MPI_Wtime: each call starts after
 * a barrier and is timed alone; rank 0 prints each rank's duration. Compared with smpirun (the same source built by
 * smpicc), whose implementation sends a set of messages of its own for each constructor (docs/online.md,
 * "What creating a communicator costs"). With the argument "extra", also the constructors SimGrid does not implement
 * (graph, distributed graph). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxSteps = 16 };
static const char* names[kMaxSteps];
static double durations[kMaxSteps];
static int steps = 0;
static int rank, size;
static double started;

static void start(const char* name)
{
  MPI_Barrier(MPI_COMM_WORLD);
  names[steps] = name;
  started = MPI_Wtime();
}

static void stop(MPI_Comm* made)
{
  durations[steps++] = MPI_Wtime() - started;
  if (made != NULL && *made != MPI_COMM_NULL)
    MPI_Comm_free(made);
}

static MPI_Group group_of_ranks(int first, int stride)
{
  MPI_Group world, group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int ranks[256], n = 0;
  for (int r = first; r < size && n < 256; r += stride)
    ranks[n++] = r;
  MPI_Group_incl(world, n, ranks, &group);
  MPI_Group_free(&world);
  return group;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int extra = argc > 1 && strcmp(argv[1], "extra") == 0;
  MPI_Comm made = MPI_COMM_NULL;

  start("split_parity");
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &made);
  stop(&made);

  start("split_reversed_keys_one_undefined");
  MPI_Comm_split(MPI_COMM_WORLD, rank == size / 2 ? MPI_UNDEFINED : rank % 3, size - rank, &made);
  stop(&made);

  start("split_root_undefined");
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : rank / 4, 0, &made);
  stop(&made);

  start("dup");
  MPI_Comm_dup(MPI_COMM_WORLD, &made);
  stop(&made);

  start("dup_with_info");
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &made);
  stop(&made);

  MPI_Group evens = group_of_ranks(0, 2);
  start("create_evens");
  MPI_Comm_create(MPI_COMM_WORLD, evens, &made);
  stop(&made);
  MPI_Group_free(&evens);

  MPI_Group all_but_first = group_of_ranks(1, 1);
  start("create_group_all_but_first");
  if (rank != 0) // only the group's members call it
    MPI_Comm_create_group(MPI_COMM_WORLD, all_but_first, 7, &made);
  stop(&made);
  MPI_Group_free(&all_but_first);

  int dims[2] = {0, 0}, periods[2] = {1, 0};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart = MPI_COMM_NULL;
  start("cart_create");
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  stop(NULL);

  int line[1] = {size - 3};
  start("cart_create_smaller");
  MPI_Cart_create(MPI_COMM_WORLD, 1, line, periods, 0, &made);
  stop(&made);

  int rows[2] = {0, 1};
  start("cart_sub_rows");
  MPI_Cart_sub(cart, rows, &made);
  stop(&made);

  start("split_type_shared");
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &made);
  stop(&made);
  MPI_Comm_free(&cart);

  if (extra) {
    int index[256], edges[256];
    for (int r = 0; r < size; ++r) { // a ring
      index[r] = r + 1;
      edges[r] = (r + 1) % size;
    }
    start("graph_create");
    MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &made);
    stop(&made);

    int source = (rank + size - 1) % size, destination = (rank + 1) % size, weight = 1;
    start("dist_graph_create_adjacent");
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &source, &weight, 1, &destination, &weight, MPI_INFO_NULL, 0,
                                   &made);
    stop(&made);

    int degree = 1;
    start("dist_graph_create");
    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &degree, &destination, &weight, MPI_INFO_NULL, 0, &made);
    stop(&made);
  }

  double* all = rank == 0 ? malloc(sizeof(double) * (size_t)(size * steps)) : NULL;
  MPI_Gather(durations, steps, MPI_DOUBLE, all, steps, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int s = 0; s < steps; ++s) {
      printf("%s", names[s]);
      for (int r = 0; r < size; ++r)
        printf(" %.9f", all[r * steps + s]);
      printf("\n");
    }
    free(all);
  }
  MPI_Finalize();
  return 0;
}
