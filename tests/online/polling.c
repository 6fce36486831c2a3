/* Polling loops, timed with MPI_Wtime (docs/specifications/polling.md). Arguments: MODE [SIZE] [ROUNDS].
 *   wait     ROUNDS round trips of SIZE bytes between ranks 0 and 1, received by MPI_Recv: the blocking reference
 *   test     the same, each receive an MPI_Irecv completed by MPI_Test in a loop
 *   testany  the same, by MPI_Testany on the receive and a null handle
 *   testall  the same, by MPI_Testall on the receive and the reply's MPI_Isend
 *   iprobe   the same, each MPI_Recv after MPI_Iprobe has found the message in a loop
 *   workers  manager/worker on every rank: rank 0 hands out ROUNDS tasks, one at a time, to ranks 1.. which compute
 *            (rank r: r ms) and answer with r * SIZE bytes; rank 0 finds who answered with MPI_Probe(MPI_ANY_SOURCE)
 *   late     rank 1 computes 1000 s, then sends SIZE bytes; rank 0 waits for them with MPI_Test in a loop
 *   bounded  rank 0 probes 100 times for a message rank 1 sends only once rank 0 has sent it one (after the loop)
 *   forever  rank 0 probes for a message nobody sends: a deadlock a real run would spin in forever
 *   deadline rank 1 sleeps 1 s, then sends; rank 0 polls with MPI_Test until gettimeofday says 1 ms has passed, then
 *            waits for the message
 * Rank 0 prints the time measured (and, for workers, how many tasks each worker did). */
#include <mpi.h>
#include <smpi/smpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static void receive_polling(const char* mode, char* buffer, int bytes, int peer)
{
  MPI_Request request;
  int flag = 0;
  if (strcmp(mode, "iprobe") == 0) {
    while (!flag)
      MPI_Iprobe(peer, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Recv(buffer, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return;
  }
  MPI_Irecv(buffer, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &request);
  if (strcmp(mode, "testany") == 0) {
    MPI_Request requests[2] = {MPI_REQUEST_NULL, request};
    int index;
    while (!flag)
      MPI_Testany(2, requests, &index, &flag, MPI_STATUS_IGNORE);
  } else {
    while (!flag)
      MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
  }
}

static void receive(const char* mode, char* buffer, int bytes, int peer)
{
  if (strcmp(mode, "wait") == 0)
    MPI_Recv(buffer, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else
    receive_polling(mode, buffer, bytes, peer);
}

/* MPI_Testall: the reply goes out with MPI_Isend while the next receive is posted; both are tested together. */
static void exchange_testall(char* buffer, char* reply, int bytes, int peer, int send_first)
{
  MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int flag = 0;
  if (send_first)
    MPI_Isend(reply, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &requests[0]);
  else
    MPI_Irecv(buffer, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &requests[1]);
  while (!flag)
    MPI_Testall(2, requests, &flag, MPI_STATUSES_IGNORE);
}

static void pingpong(const char* mode, int rank, int bytes, int rounds)
{
  char* buffer = calloc(bytes, 1);
  char* reply = calloc(bytes, 1);
  const double start = MPI_Wtime();
  for (int round = 0; round < rounds; ++round) {
    if (strcmp(mode, "testall") == 0) {
      exchange_testall(buffer, reply, bytes, 1 - rank, rank == 0);
      exchange_testall(buffer, reply, bytes, 1 - rank, rank == 1);
    } else if (rank == 0) {
      MPI_Send(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      receive(mode, buffer, bytes, 1);
    } else if (rank == 1) {
      receive(mode, buffer, bytes, 0);
      MPI_Send(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  if (rank == 0)
    printf("%s: %d round trips of %d bytes: %.9f s\n", mode, rounds, bytes, MPI_Wtime() - start);
  free(buffer);
  free(reply);
}

enum { TASK = 1, RESULT = 2 };

static void workers(int rank, int size, int bytes, int tasks)
{
  const double start = MPI_Wtime();
  if (rank == 0) {
    int given = 0, done[64] = {0};
    for (int worker = 1; worker < size; ++worker, ++given) {
      int task = given < tasks ? given : -1;
      MPI_Send(&task, 1, MPI_INT, worker, TASK, MPI_COMM_WORLD);
    }
    for (int answered = 0; answered < tasks; ++answered) {
      MPI_Status status;
      int count;
      MPI_Probe(MPI_ANY_SOURCE, RESULT, MPI_COMM_WORLD, &status);
      MPI_Get_count(&status, MPI_BYTE, &count);
      char* result = malloc(count);
      MPI_Recv(result, count, MPI_BYTE, status.MPI_SOURCE, RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      free(result);
      ++done[status.MPI_SOURCE];
      int task = given < tasks ? given++ : -1;
      MPI_Send(&task, 1, MPI_INT, status.MPI_SOURCE, TASK, MPI_COMM_WORLD);
    }
    printf("workers: %d tasks in %.9f s; per worker:", tasks, MPI_Wtime() - start);
    for (int worker = 1; worker < size; ++worker)
      printf(" %d", done[worker]);
    printf("\n");
  } else {
    char* result = calloc((size_t)bytes * rank, 1);
    for (;;) {
      int task;
      MPI_Recv(&task, 1, MPI_INT, 0, TASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (task < 0)
        break;
      smpi_execute_flops(1e6 * rank); /* r ms on the 1 Gf hosts */
      MPI_Send(result, bytes * rank, MPI_BYTE, 0, RESULT, MPI_COMM_WORLD);
    }
    free(result);
  }
}

static void late(int rank, int bytes)
{
  char* buffer = calloc(bytes, 1);
  const double start = MPI_Wtime();
  if (rank == 1) {
    smpi_execute_flops(1e12); /* 1000 s on a 1 Gf host */
    MPI_Send(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 0) {
    receive_polling("test", buffer, bytes, 1);
    printf("late: %d bytes arrived after %.9f s\n", bytes, MPI_Wtime() - start);
  }
  free(buffer);
}

static void bounded(int rank, int polls)
{
  int flag = 0, value = 0;
  const double start = MPI_Wtime();
  if (rank == 0) {
    int tried = 0;
    for (; tried < polls && !flag; ++tried)
      MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Send(&value, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
    MPI_Recv(&value, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("bounded: %d probes found %d, exchange done after %.9f s\n", tried, flag, MPI_Wtime() - start);
  } else if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&value, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
  }
}

static void forever(int rank)
{
  int flag = 0;
  while (rank == 0 && !flag)
    MPI_Iprobe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}

static double seconds_now(void)
{
  struct timeval now;
  gettimeofday(&now, NULL);
  return now.tv_sec + 1e-6 * now.tv_usec;
}

static void deadline(int rank)
{
  int value = 0, flag = 0;
  if (rank == 1) {
    sleep(1);
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Request request;
    MPI_Irecv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
    const double start = seconds_now();
    double waited = 0;
    while (!flag && waited < 1e-3) {
      MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
      waited = seconds_now() - start;
    }
    printf("deadline: flag %d after %.6f s\n", flag, waited);
    if (!flag)
      MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  const char* mode = argc > 1 ? argv[1] : "test";
  const int bytes = argc > 2 ? atoi(argv[2]) : 1000000;
  const int rounds = argc > 3 ? atoi(argv[3]) : 3;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (strcmp(mode, "workers") == 0)
    workers(rank, size, bytes, rounds);
  else if (strcmp(mode, "late") == 0)
    late(rank, bytes);
  else if (strcmp(mode, "bounded") == 0)
    bounded(rank, rounds);
  else if (strcmp(mode, "forever") == 0)
    forever(rank);
  else if (strcmp(mode, "deadline") == 0)
    deadline(rank);
  else
    pingpong(mode, rank, bytes, rounds);
  MPI_Finalize();
  return 0;
}
