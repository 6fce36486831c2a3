/* Persistent requests: a ring exchanged ROUNDS times with MPI_Send_init/MPI_Recv_init and MPI_Startall/MPI_Waitall
 * (a derived datatype on the way), the synchronous, ready and buffered forms, MPI_PROC_NULL peers, completion calls
 * on inactive requests (at once, empty status) and MPI_Request_free. Rank 0 prints the checks.
 * With the argument "errors", misuse under MPI_ERRORS_RETURN prints the error classes instead. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 5
#define N 4

static int all(int ok)
{
  int every = 0;
  MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return every;
}

static void report(int rank, const char* what, int ok)
{
  ok = all(ok);
  if (rank == 0)
    printf("%s: %s\n", what, ok ? "ok" : "FAILED");
}

/* The ring: each round sends (rank, round) pairs to the next rank through a strided column. */
static int ring(int rank, int size)
{
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int matrix[N][2], got[N];
  MPI_Datatype column;
  MPI_Type_vector(N, 1, 2, MPI_INT, &column);
  MPI_Type_commit(&column);
  MPI_Request requests[2];
  MPI_Send_init(&matrix[0][1], 1, column, next, 3, MPI_COMM_WORLD, &requests[0]);
  MPI_Recv_init(got, N, MPI_INT, previous, 3, MPI_COMM_WORLD, &requests[1]);
  MPI_Type_free(&column); /* the requests keep what they need */
  int ok = 1;
  for (int round = 0; round < ROUNDS; ++round) {
    for (int i = 0; i < N; ++i) {
      matrix[i][0] = -1;
      matrix[i][1] = 100 * rank + 10 * round + i;
    }
    MPI_Startall(2, requests);
    MPI_Status statuses[2];
    MPI_Waitall(2, requests, statuses);
    ok &= requests[0] != MPI_REQUEST_NULL && requests[1] != MPI_REQUEST_NULL; /* persistent: still allocated */
    ok &= statuses[1].MPI_SOURCE == previous && statuses[1].MPI_TAG == 3;
    for (int i = 0; i < N; ++i)
      ok &= got[i] == 100 * previous + 10 * round + i;
  }
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);
  return ok && requests[0] == MPI_REQUEST_NULL && requests[1] == MPI_REQUEST_NULL;
}

/* Completion calls on an inactive persistent request return at once with an empty status. */
static int inactive(int rank, int size)
{
  int value = rank, ok = 1, flag = 0, index = 0, outcount = 0;
  MPI_Request request;
  MPI_Recv_init(&value, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, &request);
  MPI_Status status;
  status.MPI_SOURCE = status.MPI_TAG = 12345;
  MPI_Wait(&request, &status);
  int count = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  ok &=
      request != MPI_REQUEST_NULL && status.MPI_SOURCE == MPI_ANY_SOURCE && status.MPI_TAG == MPI_ANY_TAG && count == 0;
  MPI_Test(&request, &flag, &status);
  ok &= flag == 1 && status.MPI_SOURCE == MPI_ANY_SOURCE;
  MPI_Waitany(1, &request, &index, MPI_STATUS_IGNORE);
  ok &= index == MPI_UNDEFINED;
  MPI_Testany(1, &request, &index, &flag, MPI_STATUS_IGNORE);
  ok &= index == MPI_UNDEFINED && flag == 1;
  int indices[1];
  MPI_Waitsome(1, &request, &outcount, indices, MPI_STATUSES_IGNORE);
  ok &= outcount == MPI_UNDEFINED;
  MPI_Testsome(1, &request, &outcount, indices, MPI_STATUSES_IGNORE);
  ok &= outcount == MPI_UNDEFINED;
  MPI_Testall(1, &request, &flag, MPI_STATUSES_IGNORE);
  ok &= flag == 1;
  MPI_Request_get_status(request, &flag, &status);
  ok &= flag == 1 && status.MPI_TAG == MPI_ANY_TAG;
  MPI_Request_free(&request);
  return ok && request == MPI_REQUEST_NULL;
}

/* Ssend_init, Rsend_init (the receive is posted before the barrier) and Bsend_init from each rank to the next. */
static int modes(int rank, int size)
{
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int out[3], in[3] = {-1, -1, -1}, ok = 1;
  const int room = 3 * ((int)sizeof(int) + MPI_BSEND_OVERHEAD);
  char* buffer = malloc(room);
  MPI_Buffer_attach(buffer, room);
  MPI_Request sends[3], receives[3];
  MPI_Ssend_init(&out[0], 1, MPI_INT, next, 20, MPI_COMM_WORLD, &sends[0]);
  MPI_Rsend_init(&out[1], 1, MPI_INT, next, 21, MPI_COMM_WORLD, &sends[1]);
  MPI_Bsend_init(&out[2], 1, MPI_INT, next, 22, MPI_COMM_WORLD, &sends[2]);
  for (int i = 0; i < 3; ++i)
    MPI_Recv_init(&in[i], 1, MPI_INT, previous, 20 + i, MPI_COMM_WORLD, &receives[i]);
  for (int round = 0; round < 2; ++round) {
    MPI_Startall(3, receives);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: the ready sends are correct */
    for (int i = 0; i < 3; ++i)
      out[i] = 1000 * rank + 10 * round + i;
    MPI_Startall(3, sends);
    MPI_Waitall(3, sends, MPI_STATUSES_IGNORE);
    MPI_Waitall(3, receives, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 3; ++i)
      ok &= in[i] == 1000 * previous + 10 * round + i;
  }
  for (int i = 0; i < 3; ++i) {
    MPI_Request_free(&sends[i]);
    MPI_Request_free(&receives[i]);
  }
  void* detached;
  int detached_size;
  MPI_Buffer_detach(&detached, &detached_size);
  ok &= detached == buffer && detached_size == room;
  free(buffer);
  return ok;
}

/* Persistent requests with MPI_PROC_NULL peers complete at once, the receive with the MPI_PROC_NULL status. */
static int proc_null(void)
{
  int value = 7, ok = 1;
  MPI_Request requests[2];
  MPI_Send_init(&value, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &requests[0]);
  MPI_Recv_init(&value, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &requests[1]);
  for (int round = 0; round < 2; ++round) {
    MPI_Startall(2, requests);
    MPI_Status statuses[2];
    MPI_Waitall(2, requests, statuses);
    int count = -1;
    MPI_Get_count(&statuses[1], MPI_INT, &count);
    ok &= statuses[1].MPI_SOURCE == MPI_PROC_NULL && statuses[1].MPI_TAG == MPI_ANY_TAG && count == 0 && value == 7;
  }
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);
  return ok;
}

static const char* class_name(int code)
{
  int error_class;
  MPI_Error_class(code, &error_class);
  switch (error_class) {
  case MPI_SUCCESS: return "MPI_SUCCESS";
  case MPI_ERR_REQUEST: return "MPI_ERR_REQUEST";
  case MPI_ERR_RANK: return "MPI_ERR_RANK";
  case MPI_ERR_TAG: return "MPI_ERR_TAG";
  case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
  default: return "another class";
  }
}

static void errors(int rank, int size)
{
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int value = 0;
  MPI_Request request, immediate;
  if (rank == 0) {
    printf("send_init to rank %d: %s\n", size,
           class_name(MPI_Send_init(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &request)));
    printf("recv_init with tag -5: %s\n",
           class_name(MPI_Recv_init(&value, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &request)));
    printf("send_init with count -1: %s\n",
           class_name(MPI_Send_init(&value, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &request)));
    MPI_Recv_init(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &request);
    MPI_Start(&request);
    printf("start of an active request: %s\n", class_name(MPI_Start(&request)));
    MPI_Send(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Request_free(&request);
    MPI_Isend(&value, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &immediate);
    printf("start of a non-persistent request: %s\n", class_name(MPI_Start(&immediate)));
    MPI_Recv(&value, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&immediate, MPI_STATUS_IGNORE);
    request = MPI_REQUEST_NULL;
    printf("start of MPI_REQUEST_NULL: %s\n", class_name(MPI_Start(&request)));
    /* The other point-to-point calls of this version. */
    MPI_Message message;
    printf("mprobe from rank %d: %s\n", size,
           class_name(MPI_Mprobe(size, 0, MPI_COMM_WORLD, &message, MPI_STATUS_IGNORE)));
    message = MPI_MESSAGE_NULL;
    printf("mrecv of MPI_MESSAGE_NULL: %s\n", class_name(MPI_Mrecv(&value, 1, MPI_INT, &message, MPI_STATUS_IGNORE)));
    request = 98765;
    printf("cancel of an invalid request: %s\n", class_name(MPI_Cancel(&request)));
    MPI_Request pair[2] = {MPI_REQUEST_NULL, 98765};
    printf("waitall with an invalid request: %s\n", class_name(MPI_Waitall(2, pair, MPI_STATUSES_IGNORE)));
    printf("issend with tag -3: %s\n", class_name(MPI_Issend(&value, 1, MPI_INT, 0, -3, MPI_COMM_WORLD, &request)));
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "errors") == 0) {
    errors(rank, size);
  } else {
    report(rank, "ring of persistent requests", ring(rank, size));
    report(rank, "inactive requests complete at once", inactive(rank, size));
    report(rank, "persistent synchronous, ready and buffered sends", modes(rank, size));
    report(rank, "persistent requests on MPI_PROC_NULL", proc_null());
    if (rank == 0)
      printf("%d rounds on %d ranks\n", ROUNDS, size);
  }
  MPI_Finalize();
  return 0;
}
