/* Both ranks receive first: a deadlock the runner must report per blocked rank. */
#include <mpi.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Recv(&value, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(&value, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
