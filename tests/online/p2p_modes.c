/* Send modes seen through MPI_Wtime: rank 1 posts its receives late (it polls MPI_Wtime for DELAY seconds first).
 * A synchronous send (MPI_Ssend, MPI_Issend) returns only after that receive was posted; a standard send of a few
 * bytes and a buffered send (MPI_Bsend, even of a large message) return before it. Also MPI_Irsend to a posted
 * receive, MPI_Ibsend, and MPI_ERR_BUFFER when the attached buffer is too small. Ranks other than 0 and 1 only
 * take part in the barriers. Rank 0 prints the checks; with the argument "timing" it prints the dates instead (the
 * Ssend's return date relative to the receive's posting, for comparison with smpirun). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DELAY 0.001
#define LARGE 1000000

static void spin(double seconds)
{
  const double start = MPI_Wtime();
  while (MPI_Wtime() - start < seconds)
    ;
}

/* Rank 1's side of each case: wait, note when the receive is posted, receive, tell rank 0 that date. */
static void late_receive(void* buffer, int count, int tag)
{
  spin(DELAY);
  double posted = MPI_Wtime();
  MPI_Recv(buffer, count, MPI_BYTE, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(&posted, 1, MPI_DOUBLE, 0, 100 + tag, MPI_COMM_WORLD);
}

static double posted_date(int tag)
{
  double posted;
  MPI_Recv(&posted, 1, MPI_DOUBLE, 1, 100 + tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return posted;
}

static void say(const char* what, int yes)
{
  printf("%s: %s\n", what, yes ? "yes" : "no");
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int timing = argc > 1 && strcmp(argv[1], "timing") == 0;
  char small[4] = {1, 2, 3, 4};
  char* large = calloc(LARGE, 1);
  double returned, posted;

  /* Standard send of 4 bytes: returns before the receive is posted (eager or detached everywhere). */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Send(small, 4, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    returned = MPI_Wtime();
    if (!timing)
      say("MPI_Send of 4 bytes returned before the receive was posted", returned < posted_date(1));
    else
      posted_date(1);
  } else if (rank == 1) {
    late_receive(small, 4, 1);
  }

  /* Synchronous send of 4 bytes: returns only after the receive was posted. */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    const double start = MPI_Wtime();
    MPI_Ssend(small, 4, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
    returned = MPI_Wtime();
    posted = posted_date(2);
    if (timing)
      printf("MPI_Ssend of 4 bytes: called %.9f s before the receive, returned %.9f s after it\n", posted - start,
             returned - posted);
    else
      say("MPI_Ssend of 4 bytes returned after the receive was posted", returned >= posted);
  } else if (rank == 1) {
    late_receive(small, 4, 2);
  }

  /* MPI_Issend: not complete before the receive is posted, however often it is tested. */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Request request;
    int flag = 0, early = 0;
    MPI_Issend(small, 4, MPI_BYTE, 1, 3, MPI_COMM_WORLD, &request);
    const double start = MPI_Wtime();
    while (MPI_Wtime() - start < DELAY / 2) {
      MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
      early |= flag;
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    returned = MPI_Wtime();
    posted = posted_date(3);
    if (!timing) {
      say("MPI_Issend of 4 bytes stayed incomplete until the receive was posted", !early);
      say("MPI_Issend of 4 bytes completed after the receive was posted", returned >= posted);
    }
  } else if (rank == 1) {
    late_receive(small, 4, 3);
  }

  /* Buffered send of 1 MB: returns at once (a copy leaves later); detaching waits until it has left. */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    const int room = LARGE + MPI_BSEND_OVERHEAD;
    char* buffer = malloc(room);
    MPI_Buffer_attach(buffer, room);
    for (int i = 0; i < LARGE; i += 1000)
      large[i] = (char)(i / 1000);
    MPI_Bsend(large, LARGE, MPI_BYTE, 1, 4, MPI_COMM_WORLD);
    returned = MPI_Wtime();
    memset(large, 0, LARGE); /* the message carries the data of the call */
    void* detached;
    int detached_size;
    MPI_Buffer_detach(&detached, &detached_size);
    const double detached_at = MPI_Wtime();
    posted = posted_date(4);
    if (!timing) {
      say("MPI_Bsend of 1 MB returned before the receive was posted", returned < posted);
      say("MPI_Buffer_detach returned after the receive was posted", detached_at >= posted);
    }
    free(buffer);
  } else if (rank == 1) {
    late_receive(large, LARGE, 4);
    int ok = 1;
    for (int i = 0; i < LARGE; i += 1000)
      ok &= large[i] == (char)(i / 1000);
    MPI_Send(&ok, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    int ok;
    MPI_Recv(&ok, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!timing)
      say("the buffered message carried the data of the call", ok);
  }

  /* MPI_Irsend to a receive posted before the barrier; MPI_Ibsend; a buffer too small for the next message. */
  MPI_Barrier(MPI_COMM_WORLD);
  int value = -1, got = -1;
  MPI_Request receive = MPI_REQUEST_NULL;
  if (rank == 1)
    MPI_Irecv(&got, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &receive);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Request request;
    value = 42;
    MPI_Irsend(&value, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    const int room = (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    char* buffer = malloc(room);
    MPI_Buffer_attach(buffer, room);
    value = 43;
    MPI_Ibsend(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &request);
    int flag = 0;
    MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    while (!flag)
      MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int error_class;
    MPI_Error_class(MPI_Bsend(large, 1000, MPI_BYTE, 1, 8, MPI_COMM_WORLD), &error_class);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (!timing)
      say("MPI_Bsend beyond the attached buffer raised MPI_ERR_BUFFER", error_class == MPI_ERR_BUFFER);
    void* detached;
    int detached_size;
    MPI_Buffer_detach(&detached, &detached_size);
    free(buffer);
  } else if (rank == 1) {
    MPI_Wait(&receive, MPI_STATUS_IGNORE);
    int second;
    MPI_Recv(&second, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send((int[]){got == 42 && second == 43}, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    int ok;
    MPI_Recv(&ok, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!timing)
      say("MPI_Irsend and MPI_Ibsend delivered", ok);
  }
  free(large);
  MPI_Finalize();
  return 0;
}
