/* Check program of bench/calibrate_check.py (not used by the fit): a 1-D halo exchange on a ring. Each iteration
 * computes on the local block, then exchanges HALO bytes with both neighbours (MPI_Isend/MPI_Irecv/MPI_Waitall).
 * Usage: halo ITERATIONS HALO_BYTES WORK; rank 0 prints the time between two barriers around the loop. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iterations = argc > 1 ? atoi(argv[1]) : 1000;
  int halo = argc > 2 ? atoi(argv[2]) : 65536;
  int work = argc > 3 ? atoi(argv[3]) : 20000;
  char* out = calloc(2, (size_t)halo);
  char* in = calloc(2, (size_t)halo);
  double* block = calloc((size_t)work, sizeof(double));
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int it = 0; it < iterations; it++) {
    for (int i = 0; i < work; i++)
      block[i] = block[i] * 0.5 + i;
    if (work > 0) /* the halo carries a value of the block: the computation cannot be optimized away */
      out[0] = (char)block[it % work];
    MPI_Request requests[4];
    MPI_Irecv(in, halo, MPI_CHAR, left, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(in + halo, halo, MPI_CHAR, right, 1, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(out, halo, MPI_CHAR, right, 0, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(out + halo, halo, MPI_CHAR, left, 1, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("elapsed %.9f\n", MPI_Wtime() - start);
  free(out);
  free(in);
  free(block);
  MPI_Finalize();
  return 0;
}
