/* Durations of fence epochs, as MPI_Wtime sees them on rank 0: a ring of puts, gets or accumulates of N bytes
 * (argv[1]) between two fences. For comparing simulated times with smpirun's (docs/online.md). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = (argc > 1 ? atoi(argv[1]) : 8) / (int)sizeof(double);
  double* origin = calloc((size_t)count + 1, sizeof(double));
  double* memory = calloc((size_t)count + 1, sizeof(double));
  const int right = (rank + 1) % size;
  MPI_Win win;
  double start = MPI_Wtime();
  MPI_Win_create(memory, (MPI_Aint)(count * sizeof(double)), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  double created = MPI_Wtime();
  MPI_Win_fence(0, win);
  double opened = MPI_Wtime();
  MPI_Put(origin, count, MPI_DOUBLE, right, 0, count, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  double put = MPI_Wtime();
  MPI_Get(origin, count, MPI_DOUBLE, right, 0, count, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  double get = MPI_Wtime();
  MPI_Accumulate(origin, count, MPI_DOUBLE, right, 0, count, MPI_DOUBLE, MPI_SUM, win);
  MPI_Win_fence(0, win);
  double accumulate = MPI_Wtime();
  MPI_Win_free(&win);
  double freed = MPI_Wtime();
  if (rank == 0)
    printf("create %.9f first fence %.9f put epoch %.9f get epoch %.9f accumulate epoch %.9f free %.9f\n",
           created - start, opened - created, put - opened, get - put, accumulate - get, freed - accumulate);
  free(origin);
  free(memory);
  MPI_Finalize();
  return 0;
}
