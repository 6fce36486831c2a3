/* Invalid arguments raise the standard's error classes: returned under MPI_ERRORS_RETURN, fatal by default. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, value = 0, error_class;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Error_class(MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD), &error_class);
  if (rank == 0)
    printf("send to rank %d: %s\n", size, error_class == MPI_ERR_RANK ? "MPI_ERR_RANK" : "wrong class");
  MPI_Error_class(MPI_Send(&value, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), &error_class);
  if (rank == 0)
    printf("negative count: %s\n", error_class == MPI_ERR_COUNT ? "MPI_ERR_COUNT" : "wrong class");
  MPI_Error_class(MPI_Bcast(&value, 1, MPI_INT, size + 3, MPI_COMM_WORLD), &error_class);
  if (rank == 0)
    printf("bcast root %d: %s\n", size + 3, error_class == MPI_ERR_ROOT ? "MPI_ERR_ROOT" : "wrong class");
  MPI_Error_class(MPI_Send(&value, 1, 12345, 0, 0, MPI_COMM_WORLD), &error_class);
  if (rank == 0)
    printf("bad datatype: %s\n", error_class == MPI_ERR_TYPE ? "MPI_ERR_TYPE" : "wrong class");
  if (argc > 1) { /* "fatal": the default handler ends the run */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (rank == 0)
      MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
