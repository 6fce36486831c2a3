/* mpisim calibrate's benchmark: the measurements the hybrid model is fitted on (Bedaride et al., PMBS 2013,
 * Sec. IV.A-B), between ranks 0 and 1 of the job; other ranks only join the barriers.
 *
 *   calibrate_bench PLAN OUT.csv
 *
 * PLAN holds one measurement per line, in the order to run them (the caller shuffles them):
 *   pingpong K     round trip of K bytes 0 -> 1 -> 0; row: half of it (one-way time)
 *   preposted K R  R + 1 round trips of K bytes 0 -> 1 -> 0 back to back, each with both receives posted before the
 *                  send (rank 1 says so with a 0-byte message); rows: half of each, the first as preposted_first (it
 *                  follows the barrier, as a ping-pong does), the R others as preposted (buffers and paths warm, as in
 *                  a program's loop)
 *   ready K        the receiver has posted its receive (it said so with a 0-byte message): time in MPI_Send
 *                  (send_ready) and, in a second exchange, in MPI_Isend (isend_ready)
 *   late K D       the receiver sleeps D seconds before receiving: time in MPI_Send (send_late; about D or more when
 *                  the send waits for the receiver) and in MPI_Recv (recv_late; the data already there or not)
 *   unidir K N     N sends of K bytes 0 -> 1, back to back; row: total time until 1 has them all
 *   bidir K N      N MPI_Sendrecv of K bytes each way; row: total time (contention of both directions)
 *   inflight K N   N messages of K bytes in flight at once 0 -> 1 (MPI_Isend / MPI_Irecv, MPI_Waitall), then N back;
 *                  row: half the round trip (N = 1: a ping-pong by non-blocking calls)
 *   exchange K N   both ranks post N receives and N sends of K bytes to each other and wait for them all (a halo
 *                  exchange between two ranks), after one such exchange untimed to line the ranks up; row: its time
 *   flops N        rank 0 runs N passes of a fixed multiply-add kernel; row: flops done, time
 * OUT.csv gets `test,size,count,seconds` rows (count: messages, or flops for `flops`), after `#` lines describing
 * the machine. Times are MPI_Wtime differences taken by the rank that makes the call. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kTagData = 1, kTagReady = 2, kTagResult = 3 };

static int rank_of_this_process;
static char* send_buffer;
static char* receive_buffer;

static void sleep_seconds(double seconds)
{
  struct timespec duration;
  duration.tv_sec = (time_t)seconds;
  duration.tv_nsec = (long)((seconds - (double)duration.tv_sec) * 1e9);
  nanosleep(&duration, NULL);
}

/* Rank 1's figure travels to rank 0 outside every timed region. */
static double from_rank1(double value)
{
  if (rank_of_this_process == 1)
    MPI_Send(&value, 1, MPI_DOUBLE, 0, kTagResult, MPI_COMM_WORLD);
  else if (rank_of_this_process == 0)
    MPI_Recv(&value, 1, MPI_DOUBLE, 1, kTagResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return value;
}

static double pingpong(int size)
{
  double start = MPI_Wtime();
  if (rank_of_this_process == 0) {
    MPI_Send(send_buffer, size, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD);
    MPI_Recv(receive_buffer, size, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank_of_this_process == 1) {
    MPI_Recv(receive_buffer, size, MPI_CHAR, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(send_buffer, size, MPI_CHAR, 0, kTagData, MPI_COMM_WORLD);
  }
  return (MPI_Wtime() - start) / 2;
}

/* One round trip whose receives are both posted before the data leaves, after a 0-byte message tells rank 0 that
 * rank 1's is: half of it. Blocking sends, so that the model's one-way time has the ping-pong's terms. */
static double preposted_round_trip(int size)
{
  MPI_Request request = MPI_REQUEST_NULL;
  int peer = 1 - rank_of_this_process;
  MPI_Irecv(receive_buffer, size, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, &request);
  if (rank_of_this_process == 1)
    MPI_Send(NULL, 0, MPI_CHAR, 0, kTagReady, MPI_COMM_WORLD);
  else
    MPI_Recv(NULL, 0, MPI_CHAR, 1, kTagReady, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double start = MPI_Wtime();
  if (rank_of_this_process == 0) {
    MPI_Send(send_buffer, size, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else {
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Send(send_buffer, size, MPI_CHAR, 0, kTagData, MPI_COMM_WORLD);
  }
  return (MPI_Wtime() - start) / 2;
}

/* Time rank 0 spends in MPI_Send (blocking) or MPI_Isend when rank 1's receive is already posted. */
static double send_to_ready_receiver(int size, int blocking)
{
  double spent = 0;
  if (rank_of_this_process == 0) {
    MPI_Request request;
    MPI_Recv(NULL, 0, MPI_CHAR, 1, kTagReady, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double start = MPI_Wtime();
    if (blocking) {
      MPI_Send(send_buffer, size, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD);
      spent = MPI_Wtime() - start;
    } else {
      MPI_Isend(send_buffer, size, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD, &request);
      spent = MPI_Wtime() - start;
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
  } else if (rank_of_this_process == 1) {
    MPI_Request request;
    MPI_Irecv(receive_buffer, size, MPI_CHAR, 0, kTagData, MPI_COMM_WORLD, &request);
    MPI_Send(NULL, 0, MPI_CHAR, 0, kTagReady, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  return spent;
}

/* The receiver arrives `delay` seconds late: rank 0's time in MPI_Send, rank 1's in MPI_Recv. */
static void late_receiver(int size, double delay, double* send_time, double* receive_time)
{
  double spent = 0;
  if (rank_of_this_process == 0) {
    double start = MPI_Wtime();
    MPI_Send(send_buffer, size, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD);
    spent = MPI_Wtime() - start;
  } else if (rank_of_this_process == 1) {
    sleep_seconds(delay);
    double start = MPI_Wtime();
    MPI_Recv(receive_buffer, size, MPI_CHAR, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    spent = MPI_Wtime() - start;
  }
  *send_time = spent;
  *receive_time = from_rank1(spent);
}

enum { kMostInFlight = 64 };

/* Posts `count` receives of `size` bytes from the peer into consecutive slices of the receive buffer. */
static void post_receives(int peer, int size, int count, MPI_Request* requests)
{
  for (int i = 0; i < count; i++)
    MPI_Irecv(receive_buffer + (size_t)i * size, size, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, &requests[i]);
}

static void post_sends(int peer, int size, int count, MPI_Request* requests)
{
  for (int i = 0; i < count; i++)
    MPI_Isend(send_buffer + (size_t)i * size, size, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, &requests[i]);
}

/* One-way time of `count` messages in flight together: half the round trip 0 -> 1 -> 0. */
static double in_flight(int size, int count)
{
  MPI_Request requests[2 * kMostInFlight];
  double start = MPI_Wtime();
  if (rank_of_this_process == 0) {
    post_receives(1, size, count, requests + count);
    post_sends(1, size, count, requests);
    MPI_Waitall(2 * count, requests, MPI_STATUSES_IGNORE);
  } else if (rank_of_this_process == 1) {
    post_receives(0, size, count, requests);
    MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    post_sends(0, size, count, requests);
    MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
  }
  return (MPI_Wtime() - start) / 2;
}

static void exchange_once(int size, int count)
{
  MPI_Request requests[2 * kMostInFlight];
  int peer = 1 - rank_of_this_process;
  post_receives(peer, size, count, requests);
  post_sends(peer, size, count, requests + count);
  MPI_Waitall(2 * count, requests, MPI_STATUSES_IGNORE);
}

/* Time of one exchange of `count` messages each way; the untimed one before starts both ranks together. */
static double exchange(int size, int count)
{
  if (rank_of_this_process > 1)
    return 0;
  exchange_once(size, count);
  double start = MPI_Wtime();
  exchange_once(size, count);
  return MPI_Wtime() - start;
}

static double unidirectional(int size, int count)
{
  double start = MPI_Wtime();
  for (int i = 0; i < count; i++) {
    if (rank_of_this_process == 0)
      MPI_Send(send_buffer, size, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD);
    else if (rank_of_this_process == 1)
      MPI_Recv(receive_buffer, size, MPI_CHAR, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  /* the last message has arrived when rank 1 says so */
  if (rank_of_this_process == 1)
    MPI_Send(NULL, 0, MPI_CHAR, 0, kTagReady, MPI_COMM_WORLD);
  else if (rank_of_this_process == 0)
    MPI_Recv(NULL, 0, MPI_CHAR, 1, kTagReady, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return MPI_Wtime() - start;
}

static double bidirectional(int size, int count)
{
  double start = MPI_Wtime();
  if (rank_of_this_process <= 1) {
    int peer = 1 - rank_of_this_process;
    for (int i = 0; i < count; i++)
      MPI_Sendrecv(send_buffer, size, MPI_CHAR, peer, kTagData, receive_buffer, size, MPI_CHAR, peer, kTagData,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return MPI_Wtime() - start;
}

/* A multiply-add over an array that stays in the first-level cache: 2 flops per element and pass. */
static double multiply_add_kernel(long passes, double* flops)
{
  enum { kLength = 2048 };
  static double x[kLength], y[kLength];
  for (int i = 0; i < kLength; i++) {
    x[i] = 1.0 + i * 1e-6;
    y[i] = 0.5;
  }
  double start = MPI_Wtime();
  for (long pass = 0; pass < passes; pass++)
    for (int i = 0; i < kLength; i++)
      y[i] = y[i] * 0.999999 + x[i];
  double elapsed = MPI_Wtime() - start;
  double checksum = 0;
  for (int i = 0; i < kLength; i++)
    checksum += y[i];
  if (checksum == 42.0) /* keeps the loop from being optimized away */
    printf("#\n");
  *flops = 2.0 * kLength * (double)passes;
  return elapsed;
}

static void describe_machine(FILE* out, int ranks)
{
  char name[MPI_MAX_PROCESSOR_NAME + 1] = {0};
  char peer_name[MPI_MAX_PROCESSOR_NAME + 1] = {0};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  if (rank_of_this_process == 1)
    MPI_Send(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, kTagResult, MPI_COMM_WORLD);
  if (rank_of_this_process != 0)
    return;
  MPI_Recv(peer_name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1, kTagResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  char library[MPI_MAX_LIBRARY_VERSION_STRING + 1] = {0};
  MPI_Get_library_version(library, &length);
  for (char* c = library; *c; c++)
    if (*c == '\n' || *c == '\r')
      *c = ' ';
  fprintf(out, "# ranks: %d\n# rank 0 host: %s\n# rank 1 host: %s\n# mpi library: %s\n", ranks, name, peer_name,
          library);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_of_this_process);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc != 3 || ranks < 2) {
    if (rank_of_this_process == 0)
      fprintf(stderr, "calibrate_bench: usage: mpirun -np 2 calibrate_bench PLAN OUT.csv (got %d ranks)\n", ranks);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  FILE* plan = fopen(argv[1], "r");
  if (!plan) {
    fprintf(stderr, "calibrate_bench: cannot read %s\n", argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  FILE* out = NULL;
  if (rank_of_this_process == 0) {
    out = fopen(argv[2], "w");
    if (!out) {
      fprintf(stderr, "calibrate_bench: cannot write %s\n", argv[2]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  /* the largest message of the plan sizes the buffers */
  long largest = 1;
  char test[32];
  long size = 0;
  char line[256];
  while (fgets(line, sizeof line, plan)) {
    double count = 1;
    int fields = sscanf(line, "%31s %ld %lf", test, &size, &count);
    if (fields < 2 || strcmp(test, "flops") == 0)
      continue;
    int concurrent = strcmp(test, "inflight") == 0 || strcmp(test, "exchange") == 0;
    if (concurrent && (fields < 3 || count < 1 || count > kMostInFlight)) {
      fprintf(stderr, "calibrate_bench: %s needs 1 to %d messages: %s", test, kMostInFlight, line);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (strcmp(test, "preposted") == 0 && (fields < 3 || count < 1)) {
      fprintf(stderr, "calibrate_bench: preposted needs 1 or more timed round trips: %s", line);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long bytes = concurrent ? size * (long)count : size;
    if (bytes > largest)
      largest = bytes;
  }
  send_buffer = malloc((size_t)largest);
  receive_buffer = malloc((size_t)largest);
  memset(send_buffer, 1, (size_t)largest);
  memset(receive_buffer, 0, (size_t)largest);

  describe_machine(out, ranks);
  if (out)
    fprintf(out, "test,size,count,seconds\n");
  rewind(plan);
  pingpong(1); /* warm-up: connections and first-touch of the buffers */
  pingpong((int)largest);
  while (fgets(line, sizeof line, plan)) {
    double second = 0;
    long count = 1;
    if (sscanf(line, "%31s %ld %lf", test, &size, &second) < 2)
      continue;
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(test, "pingpong") == 0) {
      double t = pingpong((int)size);
      if (out)
        fprintf(out, "pingpong,%ld,1,%.9e\n", size, t);
    } else if (strcmp(test, "preposted") == 0) {
      int rounds = (int)second;
      for (int round = 0; round <= rounds && rank_of_this_process <= 1; round++) {
        double t = preposted_round_trip((int)size);
        if (out)
          fprintf(out, "%s,%ld,1,%.9e\n", round == 0 ? "preposted_first" : "preposted", size, t);
      }
    } else if (strcmp(test, "ready") == 0) {
      double blocking = send_to_ready_receiver((int)size, 1);
      double nonblocking = send_to_ready_receiver((int)size, 0);
      if (out)
        fprintf(out, "send_ready,%ld,1,%.9e\nisend_ready,%ld,1,%.9e\n", size, blocking, size, nonblocking);
    } else if (strcmp(test, "late") == 0) {
      double send_time = 0, receive_time = 0;
      late_receiver((int)size, second, &send_time, &receive_time);
      if (out)
        fprintf(out, "send_late,%ld,1,%.9e\nrecv_late,%ld,1,%.9e\n", size, send_time, size, receive_time);
    } else if (strcmp(test, "unidir") == 0 || strcmp(test, "bidir") == 0) {
      count = (long)second;
      double t = test[0] == 'u' ? unidirectional((int)size, (int)count) : bidirectional((int)size, (int)count);
      if (out)
        fprintf(out, "%s,%ld,%ld,%.9e\n", test, size, count, t);
    } else if (strcmp(test, "inflight") == 0 || strcmp(test, "exchange") == 0) {
      count = (long)second;
      double t = test[0] == 'i' ? in_flight((int)size, (int)count) : exchange((int)size, (int)count);
      if (out)
        fprintf(out, "%s,%ld,%ld,%.9e\n", test, size, count, t);
    } else if (strcmp(test, "flops") == 0) {
      double flops = 0;
      double t = rank_of_this_process == 0 ? multiply_add_kernel(size, &flops) : 0;
      if (out)
        fprintf(out, "flops,%ld,%.0f,%.9e\n", size, flops, t);
    }
  }
  if (out)
    fclose(out);
  fclose(plan);
  free(send_buffer);
  free(receive_buffer);
  MPI_Finalize();
  return 0;
}
