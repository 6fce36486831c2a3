/* Streams data to a shared file: each rank writes BLOCKS blocks of 1 MiB (argument) from one buffer, block b of rank
 * r at (b * size + r) MiB, collectively with aggregation forced (romio_cb_write = enable). The simulator's memory must
 * not grow with BLOCKS: the bytes go to the real file. */
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
  const int blocks = argc > 1 ? atoi(argv[1]) : 8;
  const int block = 1 << 20;
  char* data = malloc(block);
  memset(data, 'a' + rank, block);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_write", "enable");
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "stream.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
  MPI_Info_free(&info);
  for (int b = 0; b < blocks; ++b)
    MPI_File_write_at_all(fh, ((MPI_Offset)b * size + rank) * block, data, block, MPI_BYTE, MPI_STATUS_IGNORE);
  /* No barrier: a two-phase write_all returns once every aggregator has written (ROMIO ends it with a collective,
   * docs/specifications/two-phase-io.md step 9), so the size is complete. */
  MPI_Offset bytes;
  MPI_File_get_size(fh, &bytes);
  if (rank == 0)
    printf("%lld bytes\n", (long long)bytes);
  MPI_File_close(&fh);
  free(data);
  MPI_Finalize();
  return 0;
}
