/* Where MPI-IO files go: the program opens (creating) each name given as an argument, writes its own name into it,
 * and prints the error class of each open. Under mpisim every name resolves inside the run's I/O root; a name that
 * climbs out of it ("..") is refused with MPI_ERR_BAD_FILE. The argument "--abort" ends the job there (MPI_Abort, code
 * 3). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--abort") == 0)
      MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_File fh;
    const int err = MPI_File_open(MPI_COMM_WORLD, argv[i], MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    int cls = 0;
    MPI_Error_class(err, &cls);
    if (rank == 0)
      printf("%s: %s\n", argv[i],
             cls == MPI_SUCCESS        ? "opened"
             : cls == MPI_ERR_BAD_FILE ? "MPI_ERR_BAD_FILE"
                                       : "another error");
    if (err == MPI_SUCCESS) {
      if (rank == 0)
        MPI_File_write_at(fh, 0, argv[i], (int)strlen(argv[i]), MPI_CHAR, MPI_STATUS_IGNORE);
      MPI_File_close(&fh);
    }
  }
  MPI_Finalize();
  return 0;
}
