/* A token goes around the ring of ranks twice; each rank adds its rank to it. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int token = 0;
  for (int lap = 0; lap < 2; ++lap) {
    if (rank == 0) {
      MPI_Send(&token, 1, MPI_INT, 1 % size, lap, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, size - 1, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Status status;
      MPI_Recv(&token, 1, MPI_INT, rank - 1, lap, MPI_COMM_WORLD, &status);
      token += rank;
      MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, lap, MPI_COMM_WORLD);
    }
  }
  if (rank == 0)
    printf("token after 2 laps on %d ranks: %d\n", size, token);
  MPI_Finalize();
  return 0;
}
