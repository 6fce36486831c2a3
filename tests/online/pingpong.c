/* Ping-pong of SIZE bytes between ranks 0 and 1, timed with MPI_Wtime: the simulated round trip. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  const int bytes = argc > 1 ? atoi(argv[1]) : 1000000;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* buffer = calloc(bytes, 1);
  const double start = MPI_Wtime();
  if (rank == 0) {
    MPI_Send(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("round trip of %d bytes: %.9f s\n", bytes, MPI_Wtime() - start);
  } else if (rank == 1) {
    MPI_Recv(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
