/* The program's own timers read simulated time. Argument:
 *   exchange  ranks 0 and 1 time a 1 MB round trip with each wall clock (MPI_Wtime, gettimeofday, clock_gettime on
 *             CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME, timespec_get) and with each CPU
 *             clock (clock, times, getrusage, CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID); rank 0 prints the
 *             durations in microseconds
 *   compute   rank 0 times a busy loop with wall and CPU clocks: both see the computation injected for it
 *   sleep     sleep(100), usleep, nanosleep, clock_nanosleep (relative and absolute), timed with MPI_Wtime
 *   date      the dates the clocks give at start (simulated: 1970-01-01 plus the simulated time) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#define BYTES 1000000
static char buffer[BYTES];

static void round_trip(int rank)
{
  if (rank == 0) {
    MPI_Send(buffer, BYTES, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(buffer, BYTES, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(buffer, BYTES, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buffer, BYTES, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
  }
}

enum clock_kind {
  WTIME,
  GETTIMEOFDAY,
  REALTIME,
  MONOTONIC,
  MONOTONIC_RAW,
  BOOTTIME,
  TIMESPEC_GET,
  CLOCK,
  TIMES,
  RUSAGE,
  PROCESS_CPU,
  THREAD_CPU,
  KINDS
};
static const char* names[KINDS] = {"MPI_Wtime",
                                   "gettimeofday",
                                   "CLOCK_REALTIME",
                                   "CLOCK_MONOTONIC",
                                   "CLOCK_MONOTONIC_RAW",
                                   "CLOCK_BOOTTIME",
                                   "timespec_get",
                                   "clock",
                                   "times",
                                   "getrusage",
                                   "CLOCK_PROCESS_CPUTIME_ID",
                                   "CLOCK_THREAD_CPUTIME_ID"};

static double seconds(struct timespec t)
{
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double read_clock(enum clock_kind kind)
{
  struct timespec t;
  struct timeval v;
  struct tms cpu;
  struct rusage usage;
  switch (kind) {
  case WTIME: return MPI_Wtime();
  case GETTIMEOFDAY: gettimeofday(&v, NULL); return v.tv_sec + 1e-6 * v.tv_usec;
  case REALTIME: clock_gettime(CLOCK_REALTIME, &t); return seconds(t);
  case MONOTONIC: clock_gettime(CLOCK_MONOTONIC, &t); return seconds(t);
  case MONOTONIC_RAW: clock_gettime(CLOCK_MONOTONIC_RAW, &t); return seconds(t);
  case BOOTTIME: clock_gettime(CLOCK_BOOTTIME, &t); return seconds(t);
  case TIMESPEC_GET: timespec_get(&t, TIME_UTC); return seconds(t);
  case CLOCK: return (double)clock() / CLOCKS_PER_SEC;
  case TIMES: times(&cpu); return (double)cpu.tms_utime / sysconf(_SC_CLK_TCK);
  case RUSAGE: getrusage(RUSAGE_SELF, &usage); return usage.ru_utime.tv_sec + 1e-6 * usage.ru_utime.tv_usec;
  case PROCESS_CPU: clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return seconds(t);
  case THREAD_CPU: clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return seconds(t);
  default: return 0;
  }
}

static void exchange(int rank)
{
  for (int kind = 0; kind < KINDS; ++kind) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = read_clock(kind);
    round_trip(rank);
    double elapsed = read_clock(kind) - start;
    if (rank == 0)
      printf("%s %.3f us\n", names[kind], elapsed * 1e6);
  }
}

static volatile double sink;

static void compute(int rank)
{
  if (rank != 0)
    return;
  double wall0 = read_clock(GETTIMEOFDAY), mono0 = read_clock(MONOTONIC), cpu0 = read_clock(PROCESS_CPU);
  double clock0 = read_clock(CLOCK), usage0 = read_clock(RUSAGE);
  double x = 0;
  for (long i = 0; i < 30000000; ++i)
    x += i * 1e-9;
  sink = x;
  double cpu = read_clock(PROCESS_CPU) - cpu0, mono = read_clock(MONOTONIC) - mono0;
  double wall = read_clock(GETTIMEOFDAY) - wall0, clocked = read_clock(CLOCK) - clock0;
  double usage = read_clock(RUSAGE) - usage0;
  printf("cpu %.9f monotonic %.9f gettimeofday %.9f clock %.9f getrusage %.9f\n", cpu, mono, wall, clocked, usage);
}

static void sleeps(int rank)
{
  double t0 = MPI_Wtime();
  unsigned left = sleep(100);
  double t1 = MPI_Wtime();
  usleep(250000);
  double t2 = MPI_Wtime();
  struct timespec half = {0, 500000000};
  nanosleep(&half, NULL);
  double t3 = MPI_Wtime();
  struct timespec two = {2, 0};
  clock_nanosleep(CLOCK_MONOTONIC, 0, &two, NULL);
  double t4 = MPI_Wtime();
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 3;
  clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &until, NULL);
  double t5 = MPI_Wtime();
  if (rank == 0)
    printf("sleep %.6f (left %u) usleep %.6f nanosleep %.6f clock_nanosleep %.6f absolute %.6f\n", t1 - t0, left,
           t2 - t1, t3 - t2, t4 - t3, t5 - t4);
}

static void dates(int rank)
{
  struct timeval v;
  gettimeofday(&v, NULL);
  if (rank == 0)
    printf("time %ld gettimeofday %ld\n", (long)time(NULL), (long)v.tv_sec);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "exchange";
  if (strcmp(mode, "exchange") == 0)
    exchange(rank);
  else if (strcmp(mode, "compute") == 0)
    compute(rank);
  else if (strcmp(mode, "sleep") == 0)
    sleeps(rank);
  else
    dates(rank);
  MPI_Finalize();
  return 0;
}
