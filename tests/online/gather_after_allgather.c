/* Times one MPI_Gather of N bytes per rank (rank 0 prints the longest duration), after an MPI_Allgather when the
 * first argument is 1. Under the mvapich2 selector, SimGrid decides the gather on the communicator's "blocked" flag,
 * which only an earlier collective (the allgather) computes: compared with smpirun. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int allgather_first = argc > 1 ? atoi(argv[1]) : 0;
  const int bytes = argc > 2 ? atoi(argv[2]) : 1000;
  char* block = calloc((size_t)bytes, 1);
  char* all = calloc((size_t)bytes * size, 1);
  int* ranks = calloc((size_t)size, sizeof(int));
  if (allgather_first)
    MPI_Allgather(&rank, 1, MPI_INT, ranks, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_Gather(block, bytes, MPI_CHAR, all, bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
  double mine = MPI_Wtime() - t0, longest;
  MPI_Reduce(&mine, &longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("gather %.9f\n", longest);
  free(block);
  free(all);
  free(ranks);
  MPI_Finalize();
  return 0;
}
