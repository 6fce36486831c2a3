/* Each rank computes for about 50 ms of CPU time, then joins a barrier: the computation becomes simulated time. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double cpu_seconds(void)
{
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec + 1e-9 * now.tv_nsec;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  const double start = cpu_seconds();
  volatile double x = 0;
  while (cpu_seconds() - start < 0.05)
    for (int i = 0; i < 10000; ++i)
      x = x * 0.5 + 1;
  const double before = MPI_Wtime();
  MPI_Barrier(MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("computed for %.3f s of simulated time before the barrier\n", before);
  MPI_Finalize();
  return 0;
}
