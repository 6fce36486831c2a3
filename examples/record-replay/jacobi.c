/* A 1D Jacobi relaxation: each rank owns a slice of a rod, exchanges one ghost cell with each neighbour per
 * iteration (MPI_Irecv/MPI_Isend/MPI_Waitall), updates its slice (the computation the recorder measures), and every
 * 10 iterations all ranks agree on the largest change (MPI_Allreduce); rank 0 finally gathers the slices' sums
 * (MPI_Gather). See README.md for recording it and replaying the trace.
 *
 *   mpicc -O2 -o jacobi examples/record-replay/jacobi.c
 *   mpirun -np 4 ./jacobi [cells per rank, default 1000000] [iterations, default 100]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int cells = argc > 1 ? atoi(argv[1]) : 1000000;
  int iterations = argc > 2 ? atoi(argv[2]) : 100;
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

  /* cells 1..cells are owned, 0 and cells + 1 are ghost cells; the rod's left end is held at 1 */
  double* u = calloc((size_t)cells + 2, sizeof(double));
  double* next = calloc((size_t)cells + 2, sizeof(double));
  if (rank == 0)
    u[0] = next[0] = 1.0;

  double change = 0;
  for (int it = 0; it < iterations; ++it) {
    MPI_Request requests[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(&u[cells + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(&u[cells], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
    if (rank == 0)
      u[0] = 1.0;

    double local = 0;
    for (int i = 1; i <= cells; ++i) {
      next[i] = 0.5 * (u[i - 1] + u[i + 1]);
      double d = next[i] > u[i] ? next[i] - u[i] : u[i] - next[i];
      if (d > local)
        local = d;
    }
    double* swap = u;
    u = next;
    next = swap;
    if (it % 10 == 9)
      MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }

  double sum = 0, *sums = rank == 0 ? malloc(sizeof(double) * (size_t)size) : NULL;
  for (int i = 1; i <= cells; ++i)
    sum += u[i];
  MPI_Gather(&sum, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double total = 0;
    for (int r = 0; r < size; ++r)
      total += sums[r];
    printf("heat %.6f, last change %.3e\n", total, change);
  }
  free(u);
  free(next);
  free(sums);
  MPI_Finalize();
  return 0;
}
