/* 1-D halo exchange with non-blocking point-to-point: each rank owns N cells, exchanges one ghost cell with each
 * neighbour (periodic), smooths, and after ITERATIONS steps rank 0 prints every rank's checksum. */
#include <mpi.h>
#include <stdio.h>

#define N 64
#define ITERATIONS 10

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double cells[N + 2], next[N + 2];
  for (int i = 1; i <= N; ++i)
    cells[i] = rank * N + i;
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int step = 0; step < ITERATIONS; ++step) {
    MPI_Request requests[4];
    MPI_Irecv(&cells[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(&cells[N + 1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(&cells[N], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(&cells[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &requests[3]);
    MPI_Status statuses[4];
    MPI_Waitall(4, requests, statuses);
    if (statuses[0].MPI_SOURCE != left || statuses[1].MPI_TAG != 2)
      printf("rank %d: bad status\n", rank);
    for (int i = 1; i <= N; ++i)
      next[i] = (cells[i - 1] + 2 * cells[i] + cells[i + 1]) / 4;
    for (int i = 1; i <= N; ++i)
      cells[i] = next[i];
  }
  double sum = 0;
  for (int i = 1; i <= N; ++i)
    sum += cells[i];
  if (rank == 0) {
    printf("rank 0 checksum %.6f\n", sum);
    for (int r = 1; r < size; ++r) {
      MPI_Status status;
      MPI_Recv(&sum, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &status);
      int count;
      MPI_Get_count(&status, MPI_DOUBLE, &count);
      printf("rank %d checksum %.6f (%d value)\n", status.MPI_SOURCE, sum, count);
    }
  } else {
    MPI_Send(&sum, 1, MPI_DOUBLE, 0, 99, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
