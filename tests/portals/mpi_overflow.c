/* Unexpected MPI messages in the overflow list under --model bxi (tests/python/test_portals.py).
 *   mpi_overflow SIZE COUNT RECV_AT [ROUNDS]: per round, rank 0 sends COUNT messages of SIZE bytes (tags 0, 1, ...)
 *     to rank 1, which starts receiving them in order at RECV_AT * (round + 1) us, then answers 0 B (rank 0 waits
 *     for it before its next round);
 *   mpi_overflow any RECV_AT: ranks 1 and 2 send 8 B to rank 0 (rank 2 1 us later), which receives twice from
 *     MPI_ANY_SOURCE, starting at RECV_AT us.
 * Lines "t NAME DATE": dates in microseconds after MPI_Init; then whether the data is right. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double start_us;

static double now_us(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3 - start_us;
}

static void sleep_until(double date_us)
{
  const double left = date_us - now_us();
  if (left > 0) { /* nanosleep: usleep would drop the fraction of a microsecond */
    const long ns = (long)(left * 1e3 + 0.5);
    struct timespec t = {ns / 1000000000L, ns % 1000000000L};
    nanosleep(&t, NULL);
  }
}

static void any_source(int rank, double receive_at)
{
  char message[8] = {0};
  if (rank == 0) {
    sleep_until(receive_at);
    int right = 1;
    for (int i = 0; i < 2; ++i) {
      MPI_Status status;
      MPI_Recv(message, 8, MPI_BYTE, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &status);
      printf("t any%d %.4f from %d\n", i, now_us(), status.MPI_SOURCE);
      right = right && message[0] == 'a' + status.MPI_SOURCE;
    }
    printf("rank 0: %s\n", right ? "data right" : "data wrong");
  } else if (rank <= 2) {
    if (rank == 2)
      usleep(1);
    memset(message, 'a' + rank, sizeof message);
    MPI_Send(message, 8, MPI_BYTE, 0, 5, MPI_COMM_WORLD);
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  start_us = 0;
  start_us = now_us();
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 2 && strcmp(argv[1], "any") == 0) {
    any_source(rank, atof(argv[2]));
    MPI_Finalize();
    return 0;
  }
  if (argc < 4) {
    fprintf(stderr, "usage: mpi_overflow SIZE COUNT RECV_AT [ROUNDS] | any RECV_AT\n");
    return 2;
  }
  const int size = atoi(argv[1]), count = atoi(argv[2]), rounds = argc > 4 ? atoi(argv[4]) : 1;
  const double receive_at = atof(argv[3]);
  char* buffer = malloc((size_t)size + 1);
  int right = 1;
  for (int round = 0; round < rounds; ++round) {
    if (rank == 0) {
      for (int i = 0; i < count; ++i) {
        memset(buffer, 'A' + (round * count + i) % 26, (size_t)size);
        MPI_Send(buffer, size, MPI_BYTE, 1, i, MPI_COMM_WORLD);
      }
      MPI_Recv(NULL, 0, MPI_BYTE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      sleep_until(receive_at * (round + 1));
      for (int i = 0; i < count; ++i) {
        MPI_Recv(buffer, size, MPI_BYTE, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("t r%dm%d %.4f\n", round, i, now_us());
        for (int b = 0; b < size; ++b)
          right = right && buffer[b] == 'A' + (round * count + i) % 26;
      }
      MPI_Send(NULL, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD);
    }
  }
  if (rank == 1)
    printf("rank 1: %s\n", right ? "data right" : "data wrong");
  free(buffer);
  MPI_Finalize();
  return 0;
}
