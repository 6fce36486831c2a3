/* Lines on stdout and stderr from every rank, between MPI calls, some written in pieces; then, with an argument,
 * an abnormal end: "abort" (MPI_Abort from rank 1), "crash" (rank 1 dereferences a null pointer) or "exit". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  printf("out %d first\n", rank);
  fprintf(stderr, "err %d first\n", rank);
  MPI_Barrier(MPI_COMM_WORLD);
  fprintf(stderr, "err %d ", rank); /* a line written in two pieces, across an MPI call */
  MPI_Barrier(MPI_COMM_WORLD);
  fprintf(stderr, "second\n");
  printf("out %d second\n", rank);
  const char* end = argc > 1 ? argv[1] : "";
  if (rank == 1 && strcmp(end, "abort") == 0) {
    fprintf(stderr, "err 1 aborting\n");
    MPI_Abort(MPI_COMM_WORLD, 5);
  }
  if (rank == 1 && strcmp(end, "crash") == 0) {
    fprintf(stderr, "err 1 crashing\n");
    volatile int* nowhere = NULL;
    *nowhere = 1;
  }
  if (rank == 1 && strcmp(end, "exit") == 0) {
    fprintf(stderr, "err 1 exiting");
    exit(3);
  }
  MPI_Finalize();
  return 0;
}
