/* Each rank has its own globals, statics and thread-locals: every rank writes its rank into them, lets the others
 * run (a barrier), then checks they still hold its own value. Rank 0 prints the gathered verdicts. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int global_value = -1;
static int static_value = -1;
__thread int thread_value = -1;

static int counter(void)
{
  static int calls = 0; /* a function-local static */
  return ++calls;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  global_value = rank;
  static_value = 100 + rank;
  thread_value = 200 + rank;
  for (int i = 0; i < rank; ++i)
    counter();
  MPI_Barrier(MPI_COMM_WORLD);
  int mine[4] = {global_value == rank, static_value == 100 + rank, thread_value == 200 + rank, counter() == rank + 1};
  int* all = malloc(sizeof(int) * 4 * size);
  MPI_Gather(mine, 4, MPI_INT, all, 4, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      printf("rank %d: global %s, static %s, thread-local %s, function static %s\n", r,
             all[4 * r] ? "private" : "SHARED", all[4 * r + 1] ? "private" : "SHARED",
             all[4 * r + 2] ? "private" : "SHARED", all[4 * r + 3] ? "private" : "SHARED");
  free(all);
  MPI_Finalize();
  return 0;
}
