/* A failed rank's computation stops with it (docs/failures.md): both ranks compute 1e9 flops on one single-core
 * 1 Gf host, so each runs at 0.5 Gf while both compute. Killed at 0.5 s (--fail 1@0.5s), rank 1 frees the core:
 * rank 0, 0.25e9 flops done by then, does the other 0.75e9 alone and ends its computation at 1.25 s (2 s if the dead
 * rank's computation kept its share).
 */
#include <mpi.h>
#include <smpi/smpi.h>

#include <stdio.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  smpi_execute_flops(1e9);
  printf("rank %d: computation done at %.6f s\n", rank, MPI_Wtime());
  MPI_Finalize();
  return 0;
}
