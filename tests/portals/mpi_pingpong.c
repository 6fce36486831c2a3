/* An MPI ping-pong for the MPI-over-Portals transport of --model bxi (tests/python/test_portals.py): rank 0 sends
 * SIZE bytes to rank 1, which sends them back. Lines starting with "t " are dates in microseconds (model-dependent);
 * the others (the data checks) are the same under every model. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int size = argc > 1 ? atoi(argv[1]) : 8;
  unsigned char* buffer = malloc((size_t)size);
  const double start = MPI_Wtime();
  if (rank == 0) {
    for (int i = 0; i < size; ++i)
      buffer[i] = (unsigned char)(i * 7 + 1);
    MPI_Send(buffer, size, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
    printf("t send %.4f\n", (MPI_Wtime() - start) * 1e6);
    MPI_Recv(buffer, size, MPI_BYTE, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("t pong %.4f\n", (MPI_Wtime() - start) * 1e6);
    int wrong = 0;
    for (int i = 0; i < size; ++i)
      wrong += buffer[i] != (unsigned char)(i * 7 + 2);
    printf("rank 0: %d bytes back, %s\n", size, wrong ? "data wrong" : "data right");
  } else if (rank == 1) {
    MPI_Status status;
    MPI_Recv(buffer, size, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &status);
    printf("t ping %.4f\n", (MPI_Wtime() - start) * 1e6);
    int count;
    MPI_Get_count(&status, MPI_BYTE, &count);
    int wrong = 0;
    for (int i = 0; i < size; ++i)
      wrong += buffer[i] != (unsigned char)(i * 7 + 1);
    for (int i = 0; i < size; ++i)
      ++buffer[i];
    MPI_Send(buffer, size, MPI_BYTE, 0, 6, MPI_COMM_WORLD);
    printf("rank 1: %d bytes, %s\n", count, wrong ? "data wrong" : "data right");
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
