/* Point-to-point latency and bandwidth in the manner of the OSU micro-benchmarks (osu_latency, osu_bw), written for
 * mpisim: two ranks, message sizes from 1 B to MAX_SIZE by powers of two.
 *
 *   osu_pt2pt latency [MAX_SIZE [ITERATIONS]]   half the round-trip time of a blocking ping-pong, in microseconds
 *   osu_pt2pt bw      [MAX_SIZE [ITERATIONS]]   rank 0 posts WINDOW non-blocking sends, rank 1 as many receives,
 *                                               then a 4 B reply; MB/s (10^6 bytes per second) over ITERATIONS windows
 *
 * Each size is preceded by a few warm-up iterations (not timed), as the OSU benchmarks do. Output: one line per size,
 * "SIZE VALUE", after a header line starting with '#'. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WINDOW = 64, WARMUP = 10 };

static double latency(char* buffer, int size, int iterations, int rank)
{
  double start = 0;
  for (int i = 0; i < iterations + WARMUP; ++i) {
    if (i == WARMUP)
      start = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(buffer, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buffer, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buffer, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - start) * 1e6 / (2.0 * iterations);
}

static double bandwidth(char* buffer, int size, int iterations, int rank)
{
  MPI_Request requests[WINDOW];
  char reply[4] = {0};
  double start = 0;
  for (int i = 0; i < iterations + WARMUP; ++i) {
    if (i == WARMUP)
      start = MPI_Wtime();
    for (int w = 0; w < WINDOW; ++w) {
      if (rank == 0)
        MPI_Isend(buffer + (size_t)w * size, size, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &requests[w]);
      else
        MPI_Irecv(buffer + (size_t)w * size, size, MPI_CHAR, 0, 2, MPI_COMM_WORLD, &requests[w]);
    }
    MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
    if (rank == 0)
      MPI_Recv(reply, 4, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Send(reply, 4, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
  }
  const double seconds = MPI_Wtime() - start;
  return (double)size * WINDOW * iterations / seconds / 1e6;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const char* test = argc > 1 ? argv[1] : "latency";
  const int bw = strcmp(test, "bw") == 0;
  if (ranks != 2 || (!bw && strcmp(test, "latency") != 0)) {
    if (rank == 0)
      fprintf(stderr, "usage: osu_pt2pt latency|bw [MAX_SIZE [ITERATIONS]] (2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  const int max_size = argc > 2 ? atoi(argv[2]) : 1 << 20;
  const int iterations = argc > 3 ? atoi(argv[3]) : (bw ? 10 : 1000);
  char* buffer = calloc((size_t)max_size * (bw ? WINDOW : 1), 1);
  if (rank == 0)
    printf("# %s: size %s\n", bw ? "bandwidth" : "latency", bw ? "MB/s" : "us");
  for (int size = 1; size <= max_size; size *= 2) {
    const double value = bw ? bandwidth(buffer, size, iterations, rank) : latency(buffer, size, iterations, rank);
    if (rank == 0)
      printf("%d %.3f\n", size, value);
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
