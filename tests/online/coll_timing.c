/* Times a few collectives with MPI_Wtime (rank 0 prints the durations): compared with smpirun on the same platform. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = argc > 1 ? atoi(argv[1]) : 10000;
  double* a = calloc((size_t)count * size, sizeof(double));
  double* b = calloc((size_t)count * size, sizeof(double));
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_Allreduce(a, b, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  MPI_Bcast(a, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double t2 = MPI_Wtime();
  MPI_Alltoall(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, MPI_COMM_WORLD);
  double t3 = MPI_Wtime();
  if (rank == 0)
    printf("allreduce %.9f bcast %.9f alltoall %.9f\n", t1 - t0, t2 - t1, t3 - t2);
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
