/* Collectives whose algorithms' messages a timeline shows (mpisim run --timeline-internals): a broadcast, an
 * allreduce and a barrier on MPI_COMM_WORLD, each checked. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int failures = 0;
  int value = rank == 0 ? 42 : -1;
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  failures += value != 42;
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  failures += sum != size * (size - 1) / 2;
  MPI_Barrier(MPI_COMM_WORLD);
  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("timeline_coll %s\n", total == 0 ? "PASSED" : "FAILED");
  MPI_Finalize();
  return 0;
}
