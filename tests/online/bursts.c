/* Many short computation bursts of known CPU time between MPI calls, as in a stencil code: each iteration, each rank
 * computes until its own thread CPU clock has advanced by BURST_US microseconds, then exchanges one double with its
 * partner (rank ^ 1) with MPI_Sendrecv. Run under --real-clocks, the clock the program reads is the real one: each
 * rank prints the CPU time its bursts took, to compare with the computation mpisim measured and injected for it.
 * Arguments: iterations (default 1000), burst in microseconds (default 50). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_seconds(void)
{
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec + 1e-9 * now.tv_nsec;
}

/* Spins for `seconds` of CPU time; returns the CPU time it took, by the clock. */
static double compute_for(double seconds)
{
  volatile double x = 0;
  const double start = cpu_seconds();
  double now = start;
  while (now - start < seconds) {
    for (int i = 0; i < 100; ++i)
      x = x * 0.5 + 1;
    now = cpu_seconds();
  }
  return now - start;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  const int iterations = argc > 1 ? atoi(argv[1]) : 1000;
  const double burst = (argc > 2 ? atof(argv[2]) : 50) * 1e-6;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int partner = (rank ^ 1) < size ? rank ^ 1 : MPI_PROC_NULL;
  double computed = 0, sent = rank, received = 0;
  for (int i = 0; i < iterations; ++i) {
    computed += compute_for(burst);
    MPI_Sendrecv(&sent, 1, MPI_DOUBLE, partner, 0, &received, 1, MPI_DOUBLE, partner, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  printf("rank %d computed %.9f\n", rank, computed);
  MPI_Finalize();
  return 0;
}
