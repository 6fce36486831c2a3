/* MPI_Cancel of buffered sends (MPICH pt2pt/scancel, pscancel): a buffered send completes locally, but its message
 * can still be cancelled until a receive matches it. Rank 0 sends rank 1 three buffered messages: tag 5 by MPI_Ibsend
 * and tag 6 by a persistent MPI_Bsend_init, both cancelled before rank 1 posts anything, and tag 7 not cancelled.
 * Rank 1 must find only tag 7. Then rank 0 waits for a started persistent buffered send to itself before posting its
 * receive: a buffered send is local (MPICH pt2pt/bsend3, bsend4). (Open MPI never cancels sends, so this is not
 * compared with it.) */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  int rank, value = 42, cancelled_ibsend = 0, cancelled_persistent = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int size = 4 * (sizeof(int) + MPI_BSEND_OVERHEAD);
    void* buffer = malloc(size);
    MPI_Buffer_attach(buffer, size);
    MPI_Request request;
    MPI_Status status;
    MPI_Ibsend(&value, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &cancelled_ibsend);
    MPI_Bsend_init(&value, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &request);
    MPI_Start(&request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &cancelled_persistent);
    MPI_Request_free(&request);
    MPI_Bsend(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    printf("Ibsend cancelled: %d, persistent Bsend cancelled: %d\n", cancelled_ibsend, cancelled_persistent);
    int echo = 0;
    MPI_Bsend_init(&value, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &request);
    MPI_Start(&request);
    MPI_Wait(&request, &status);
    MPI_Request_free(&request);
    MPI_Recv(&echo, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("persistent Bsend to itself completed before its receive: %d\n", echo);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Buffer_detach(&buffer, &size);
    free(buffer);
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    int received = 0;
    MPI_Recv(&received, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int pending5 = 0, pending6 = 0;
    MPI_Iprobe(0, 5, MPI_COMM_WORLD, &pending5, MPI_STATUS_IGNORE);
    MPI_Iprobe(0, 6, MPI_COMM_WORLD, &pending6, MPI_STATUS_IGNORE);
    printf("rank 1 received tag 7: %d; tag 5 pending: %d, tag 6 pending: %d\n", received, pending5, pending6);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
