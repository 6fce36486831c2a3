/* Per-call overhead of libmpisim-trace.so: 8-byte messages with MPI_Irecv, MPI_Isend and two MPI_Wait per iteration
 * (4 recorded calls), between two ranks, or a rank and itself when run on one rank (no partner to wait for: the
 * library's own cost only). Run it with and without the library and compare (docs/record.md):
 *
 *   mpicc -O2 -o overhead src/record/bench/overhead.c
 *   mpirun -np 1 ./overhead 20000
 *   mpisim record -o /tmp/overhead-trace -- mpirun -np 1 ./overhead 20000
 *
 * Prints the mean time of one iteration on rank 0, best of 5 repetitions (MPI_Wtime is not intercepted). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 2) {
    if (rank == 0)
      fprintf(stderr, "run with 1 or 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int iterations = argc > 1 ? atoi(argv[1]) : 20000;
  int peer = size == 2 ? 1 - rank : rank;
  double out = rank, in = 0, best = 1e30;
  for (int repetition = 0; repetition < 5; ++repetition) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int i = 0; i < iterations; ++i) {
      MPI_Request requests[2];
      MPI_Irecv(&in, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &requests[0]);
      MPI_Isend(&out, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &requests[1]);
      MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
      MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
    }
    double elapsed = (MPI_Wtime() - start) / iterations;
    if (elapsed < best)
      best = elapsed;
  }
  if (rank == 0)
    printf("%.3f us per iteration (MPI_Irecv + MPI_Isend + 2 MPI_Wait), best of 5 x %d\n", best * 1e6, iterations);
  MPI_Finalize();
  return 0;
}
