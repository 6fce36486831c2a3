/* A blocking send returns when the model releases the sender; under some models (loggps's rendezvous: after the
   handshake) that is before the payload has arrived. The sender may then write its buffer at once: the receiver must
   still get what was sent. Rank 0 sends 1 MiB of 1s, fills the buffer with 2s, sends it again; rank 1 checks both. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kCount = 131072 }; /* doubles: 1 MiB, above every model's rendezvous threshold */

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double* buffer = malloc(kCount * sizeof(double));
  if (rank == 0) {
    for (int round = 1; round <= 2; ++round) {
      for (int i = 0; i < kCount; ++i)
        buffer[i] = round;
      MPI_Send(buffer, kCount, MPI_DOUBLE, 1, round, MPI_COMM_WORLD);
    }
    for (int i = 0; i < kCount; ++i)
      buffer[i] = 3; /* after the last send returned */
  } else if (rank == 1) {
    for (int round = 1; round <= 2; ++round) {
      MPI_Recv(buffer, kCount, MPI_DOUBLE, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int wrong = 0;
      for (int i = 0; i < kCount; ++i)
        wrong += buffer[i] != round;
      printf("round %d: %d wrong\n", round, wrong);
    }
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
