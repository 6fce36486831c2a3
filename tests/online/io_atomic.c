/* Atomic mode: two ranks write 1 MiB each at the same time, rank 1's range overlapping the second half of rank 0's.
 * The argument is the atomicity flag (default 1). Each rank prints when its write started and ended (MPI_Wtime);
 * rank 0 then checks that the overlap holds the bytes of one rank only (each access appears whole). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BYTES = 1048576, SHIFT = BYTES / 2 };

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int atomic = argc > 1 ? atoi(argv[1]) : 1;
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "io_atomic.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_set_atomicity(fh, atomic);
  int flag = -1;
  MPI_File_get_atomicity(fh, &flag);
  char* data = malloc(BYTES);
  memset(data, 'A' + rank, BYTES);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank < 2) {
    const double start = MPI_Wtime();
    MPI_File_write_at(fh, (MPI_Offset)rank * SHIFT, data, BYTES, MPI_BYTE, MPI_STATUS_IGNORE);
    const double end = MPI_Wtime();
    printf("rank %d: atomicity %d: write from %.9f to %.9f s\n", rank, flag, start, end);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_File_read_at(fh, SHIFT, data, SHIFT, MPI_BYTE, MPI_STATUS_IGNORE);
    int whole = 1;
    for (int i = 1; i < SHIFT; ++i)
      whole = whole && data[i] == data[0];
    printf("overlap holds the bytes of one rank: %s\n", whole ? "ok" : "MIXED");
  }
  MPI_File_close(&fh);
  free(data);
  MPI_Finalize();
  return 0;
}
