/* The time of one MPI-IO write, by MPI_Wtime: rank 1 writes BYTES (argument, default 1 MiB) at offset 0 of a file
 * striped over STRIPES servers (second argument, default 1: the striping_factor hint). docs/io.md's worked example on
 * platforms/pio-cluster-10.xml. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long bytes = argc > 1 ? atol(argv[1]) : 1048576;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "striping_factor", argc > 2 ? argv[2] : "1");
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "io_timing.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
  char* data = calloc((size_t)bytes, 1);
  if (rank == 1) {
    const double start = MPI_Wtime();
    MPI_File_write_at(fh, 0, data, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
    printf("write of %ld bytes: %.9f s\n", bytes, MPI_Wtime() - start);
  }
  MPI_File_close(&fh);
  MPI_Info_free(&info);
  free(data);
  MPI_Finalize();
  return 0;
}
