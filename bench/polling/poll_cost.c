/* What one unsuccessful MPI_Test and MPI_Iprobe cost in a real MPI library: the source of mpisim's default
 * --poll-cost (docs/specifications/polling.md). Rank 0 tests a receive that rank 1 answers only afterwards, and
 * probes for a tag nobody sends, N times each; it prints the mean cost of one call.
 *   mpicc -O2 bench/polling/poll_cost.c -o poll_cost && mpirun -np 2 ./poll_cost [N]
 *   (add --mca btl tcp,self for Open MPI's TCP path instead of shared memory) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  const int n = argc > 1 ? atoi(argv[1]) : 2000000;
  int rank, flag = 0, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Request request;
    MPI_Irecv(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &request);
    double start = MPI_Wtime();
    for (int i = 0; i < n; ++i)
      MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    const double test = (MPI_Wtime() - start) / n;
    start = MPI_Wtime();
    for (int i = 0; i < n; ++i)
      MPI_Iprobe(1, 8, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    const double iprobe = (MPI_Wtime() - start) / n;
    printf("MPI_Test %.3f us, MPI_Iprobe %.3f us\n", test * 1e6, iprobe * 1e6);
    MPI_Send(&value, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
