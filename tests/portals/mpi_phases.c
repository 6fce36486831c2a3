/* Two phases of an 8 B ping-pong, the first under the model MPI_Pcontrol(1) selects, the second under MPI_Pcontrol(0)'s
 * (--pcontrol-models 1=bxi,0=smpi; tests/python/test_portals.py). "bad" calls mpisim_use_model with an unknown name.
 * Rank 0 prints each pong's duration in microseconds. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static double pingpong(int rank)
{
  char buffer[8] = "pingpon";
  const double start = MPI_Wtime();
  if (rank == 0) {
    MPI_Send(buffer, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    MPI_Recv(buffer, 8, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(buffer, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buffer, 8, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
  }
  return (MPI_Wtime() - start) * 1e6;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 1 && strcmp(argv[1], "bad") == 0)
    mpisim_use_model("no-such-model");
  MPI_Pcontrol(1);
  const double first = pingpong(rank);
  MPI_Pcontrol(0);
  const double second = pingpong(rank);
  if (rank == 0)
    printf("first %.4f\nsecond %.4f\n", first, second);
  MPI_Finalize();
  return 0;
}
