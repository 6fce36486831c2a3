/* A non-blocking collective write hidden behind a sleep, the same as the trace tests/python/test_io_nonblocking.py
 * replays: 2 ranks open "shared" on MPI_COMM_WORLD, rank r writes 64 KiB at byte 32 KiB x r (the ranges overlap:
 * two-phase I/O), with MPI_File_iwrite_at_all, then sleeps SECONDS (argument) before MPI_Wait; then the file is
 * closed. With "blocking" as second argument, MPI_File_write_at_all and the sleep after it. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BYTES 65536

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double seconds = argc > 1 ? atof(argv[1]) : 0.01;
  const int blocking = argc > 2 && strcmp(argv[2], "blocking") == 0;
  static char data[BYTES];
  memset(data, 'a' + rank, BYTES);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "shared", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  const MPI_Offset offset = (MPI_Offset)rank * (BYTES / 2);
  if (blocking) {
    MPI_File_write_at_all(fh, offset, data, BYTES, MPI_CHAR, MPI_STATUS_IGNORE);
    usleep((useconds_t)(seconds * 1e6));
  } else {
    MPI_Request request;
    MPI_File_iwrite_at_all(fh, offset, data, BYTES, MPI_CHAR, &request);
    usleep((useconds_t)(seconds * 1e6));
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_File_close(&fh);
  MPI_Finalize();
  return 0;
}
