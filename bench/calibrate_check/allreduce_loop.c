/* Check program of bench/calibrate_check.py (not used by the fit): computation then an MPI_Allreduce of COUNT
 * doubles, ITERATIONS times. Usage: allreduce_loop ITERATIONS COUNT WORK; rank 0 prints the time between two
 * barriers around the loop. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int iterations = argc > 1 ? atoi(argv[1]) : 1000;
  int count = argc > 2 ? atoi(argv[2]) : 1024;
  int work = argc > 3 ? atoi(argv[3]) : 20000;
  double* local = calloc((size_t)count, sizeof(double));
  double* global = calloc((size_t)count, sizeof(double));
  double* block = calloc((size_t)work, sizeof(double));
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int it = 0; it < iterations; it++) {
    for (int i = 0; i < work; i++)
      block[i] = block[i] * 0.5 + i;
    if (count > 0 && work > 0) /* the reduced data carries a value of the block: the computation stays */
      local[it % count] = block[it % work];
    MPI_Allreduce(local, global, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("elapsed %.9f\n", MPI_Wtime() - start);
  free(local);
  free(global);
  free(block);
  MPI_Finalize();
  return 0;
}
