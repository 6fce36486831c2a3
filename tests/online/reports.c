/* Runs that go wrong in the application, for mpisim's reports naming the cause (tests/python/test_run_reports.py).
 * The first argument picks the case:
 *   return S     rank 1 returns S from main at once; rank 0 waits to receive from it, ranks 2, 3 in a barrier
 *   exit S       the same, rank 1 calling exit(S) after a 1 s simulated sleep (so that every other rank waits)
 *   status S     every rank finalizes, then rank 0 returns S
 *   after        every rank finalizes; then rank 2 sends to rank 0
 *   before       MPI_Initialized, MPI_Get_version and MPI_Wtime (allowed), then MPI_Barrier before MPI_Init
 *   pending      rank 0 finalizes with 5 requests never completed (one send, four receives), rank 1 with none
 *   recursion    rank 1 recurses until its stack overflows (frames of 1 KiB)
 *   frame        rank 1 calls a function whose 300 KiB frame is larger than its whole stack (run with 256 KiB)
 *   ok           Init, a barrier, Finalize: every outcome field of a run that went well */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int depth_reached(int depth)
{
  volatile char frame[1024];
  frame[0] = (char)depth;
  return depth_reached(depth + 1) + frame[0]; /* not a tail call: every frame stays */
}

static int large_frame(int seed)
{
  volatile char frame[300 * 1024];
  frame[0] = (char)seed;
  return frame[0];
}

int main(int argc, char** argv)
{
  const char* what = argc > 1 ? argv[1] : "ok";
  const int status = argc > 2 ? atoi(argv[2]) : 0;
  if (strcmp(what, "before") == 0) {
    int flag = -1, version = 0, subversion = 0;
    MPI_Initialized(&flag);
    MPI_Get_version(&version, &subversion);
    printf("initialized %d, version %d.%d, wtime %g\n", flag, version, subversion, MPI_Wtime());
    MPI_Barrier(MPI_COMM_WORLD);
    printf("barrier before MPI_Init returned\n");
  }
  MPI_Init(&argc, &argv);
  int rank, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (strcmp(what, "return") == 0 || strcmp(what, "exit") == 0) {
    if (rank == 1) {
      if (strcmp(what, "exit") == 0) {
        sleep(1);
        exit(status);
      }
      return status;
    }
    if (rank == 0)
      MPI_Recv(&value, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Barrier(MPI_COMM_WORLD);
  } else if (strcmp(what, "pending") == 0 && rank == 0) {
    MPI_Request requests[5];
    MPI_Isend(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &requests[0]);
    int received[4];
    for (int i = 0; i < 4; ++i)
      MPI_Irecv(&received[i], 1, MPI_INT, MPI_ANY_SOURCE, 8 + i, MPI_COMM_WORLD, &requests[1 + i]);
  } else if (strcmp(what, "recursion") == 0 && rank == 1) {
    printf("%d\n", depth_reached(0));
  } else if (strcmp(what, "frame") == 0 && rank == 1) {
    printf("%d\n", large_frame(rank));
  } else if (strcmp(what, "ok") == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  if (strcmp(what, "after") == 0 && rank == 2)
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  if (strcmp(what, "status") == 0 && rank == 0)
    return status;
  int finalized = 0;
  MPI_Finalized(&finalized); /* allowed after MPI_Finalize */
  return finalized ? 0 : 9;
}
