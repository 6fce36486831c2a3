/* MPI call overhead: ranks 2k and 2k+1 exchange a BYTES-byte message ROUND_TRIPS times (a ping-pong per pair, all
 * pairs at once). Rank 0 prints the simulated duration of its pair's loop, measured with MPI_Wtime, and the total
 * message count; every rank checks the payload it received last.
 * Usage: pingpong_pairs [ROUND_TRIPS (10000)] [BYTES (8)] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  const int round_trips = argc > 1 ? atoi(argv[1]) : 10000;
  const int bytes = argc > 2 ? atoi(argv[2]) : 8;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int partner = rank ^ 1;
  char* buffer = calloc(bytes > 0 ? bytes : 1, 1);
  int ok = 1;
  const double start = MPI_Wtime();
  if (partner < size) {
    for (int trip = 0; trip < round_trips; ++trip) {
      if (rank % 2 == 0) {
        memset(buffer, trip & 0xff, bytes);
        MPI_Send(buffer, bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD);
        MPI_Recv(buffer, bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buffer, bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buffer, bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD);
      }
    }
    if (bytes > 0 && round_trips > 0)
      ok = buffer[bytes - 1] == (char)((round_trips - 1) & 0xff);
  }
  const double elapsed = MPI_Wtime() - start;
  int all_ok;
  MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("pairs %d round_trips %d bytes %d messages %ld loop %.9f s %s\n", size / 2, round_trips, bytes,
           2L * (size / 2) * round_trips, elapsed, all_ok ? "PASSED" : "FAILED");
  free(buffer);
  MPI_Finalize();
  return all_ok || rank != 0 ? 0 : 1;
}
