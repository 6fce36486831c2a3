/* Scale: MPI_Init, one MPI_Allreduce of one double, MPI_Finalize. Rank 0 checks the sum of all ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mine = rank, sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const int ok = sum == 0.5 * (double)size * (size - 1);
  if (rank == 0)
    printf("ranks %d sum %.0f %s\n", size, sum, ok ? "PASSED" : "FAILED");
  MPI_Finalize();
  return ok ? 0 : 1;
}
