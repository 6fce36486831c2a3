/* An error found during a non-blocking collective write, not at its call: each of 2 ranks writes 4 ints at byte
 * 2^62 + 16 r, which the call accepts (a valid offset) and the real file refuses (past ext4's largest file). The call
 * succeeds with a request; MPI_Wait raises MPI_ERR_IO through the file's error handler, not the communicator's:
 * with no argument the file's is MPI_ERRORS_RETURN (the default) and MPI_COMM_WORLD's MPI_ERRORS_ARE_FATAL, so the
 * wait returns it; with "fatal-file" the file's is MPI_ERRORS_ARE_FATAL and MPI_COMM_WORLD's MPI_ERRORS_RETURN, so
 * the run ends in MPI_Wait. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, data[4] = {1, 2, 3, 4};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "io_iwrite_error.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  if (argc > 1 && strcmp(argv[1], "fatal-file") == 0) {
    MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  }
  MPI_Request request = MPI_REQUEST_NULL;
  const int at_call = MPI_File_iwrite_at_all(fh, ((MPI_Offset)1 << 62) + 16 * rank, data, 4, MPI_INT, &request);
  const int posted = request != MPI_REQUEST_NULL;
  const int at_wait = MPI_Wait(&request, MPI_STATUS_IGNORE);
  int error_class;
  MPI_Error_class(at_wait, &error_class);
  const char* waited = at_wait == MPI_SUCCESS ? "MPI_SUCCESS" : error_class == MPI_ERR_IO ? "MPI_ERR_IO" : "another";
  printf("rank %d: call %s, %s; wait %s\n", rank, at_call == MPI_SUCCESS ? "MPI_SUCCESS" : "an error",
         posted ? "a request" : "no request", waited);
  MPI_File_close(&fh);
  MPI_Finalize();
  return 0;
}
