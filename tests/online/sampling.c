/* SMPI's sampling annotations, checked in closed form (run with the computation between MPI calls not simulated,
 * --host-speed 2Gf on 1 Gf hosts, as tests/python/test_online.py does; under smpirun the same with
 * smpi/simulate-computation:no and smpi/host-speed:2Gf):
 *   SMPI_SAMPLE_FLOPS(1e9) adds 1 s and its block never runs; SMPI_SAMPLE_DELAY(0.25) and smpi_execute(0.25) add
 *   0.25 s of the real machine, 0.5 s of the 1 Gf host; smpi_execute_benched(0.25) adds 0.25 s of the simulated host;
 *   smpi_usleep(250000) 0.25 s; smpi_sleep(1) 1 s.
 *   SMPI_SAMPLE_LOCAL(.., 20 x visit iterations, 3 samples): the body runs 3 times on the first visit, never after;
 *   visit v takes v times the first visit's time (mean x iterations, the mean fixed by the first visit's samples).
 *   A threshold of 1 stops after 2 samples (the relative standard error of 2 non-negative samples is at most 0.71).
 *   SMPI_SAMPLE_GLOBAL(.., 20 iterations, 5 samples): the body runs 5 times over all ranks, and every rank's loop
 *   takes the same time.
 * Lines are deterministic. Other checks (mpisim's only: SMPI does not support these cases), chosen by the argument:
 * `mpi-in-body` makes an MPI call inside a sampled body, `nested` nests sampled loops (both errors); `break` leaves a
 * sampled loop by `break` and samples again; `wtime-in-body` reads MPI_Wtime in a sampled body (allowed, as in SMPI).
 */
#include <mpi.h>
#include <smpi/smpi.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static volatile double sink;

/* About 2 ms of computation. */
static void work(void)
{
  double x = 0;
  for (int i = 0; i < 2000000; ++i)
    x += i * 1e-9;
  sink = x;
}

static double wtime_cost; /* what one MPI_Wtime adds to the clock (smpi/wtime) */

static double since(double start)
{
  return MPI_Wtime() - start - wtime_cost;
}

static int failures = 0;

static void expect_time(int rank, const char* what, double measured, double expected)
{
  int ok = fabs(measured - expected) < 1e-9;
  failures += !ok;
  printf("rank %d: %s adds %.9f s%s\n", rank, what, measured, ok ? "" : " (WRONG)");
}

static void injected_time(int rank)
{
  double start = MPI_Wtime();
  int ran = 0;
  SMPI_SAMPLE_FLOPS(1e9)
  {
    ++ran;
  }
  expect_time(rank, "SMPI_SAMPLE_FLOPS(1e9)", since(start), 1.0);
  start = MPI_Wtime();
  SMPI_SAMPLE_DELAY(0.25)
  {
    ++ran;
  }
  expect_time(rank, "SMPI_SAMPLE_DELAY(0.25)", since(start), 0.5);
  printf("rank %d: the blocks of SMPI_SAMPLE_FLOPS and SMPI_SAMPLE_DELAY ran %d times\n", rank, ran);
  failures += ran != 0;
  start = MPI_Wtime();
  smpi_execute_flops(5e8);
  expect_time(rank, "smpi_execute_flops(5e8)", since(start), 0.5);
  start = MPI_Wtime();
  smpi_execute(0.25);
  expect_time(rank, "smpi_execute(0.25)", since(start), 0.5);
  start = MPI_Wtime();
  smpi_execute_benched(0.25);
  expect_time(rank, "smpi_execute_benched(0.25)", since(start), 0.25);
  start = MPI_Wtime();
  smpi_usleep(250000);
  expect_time(rank, "smpi_usleep(250000)", since(start), 0.25);
  start = MPI_Wtime();
  smpi_sleep(1);
  expect_time(rank, "smpi_sleep(1)", since(start), 1.0);
}

static void local_sampling(int rank)
{
  double first = 0;
  for (int visit = 1; visit <= 3; ++visit) {
    int ran = 0, iterations = 20 * visit;
    double start = MPI_Wtime();
    SMPI_SAMPLE_LOCAL(int i = 0, i < iterations, i++, 3, -1)
    {
      work();
      ++ran;
    }
    double elapsed = since(start);
    if (visit == 1)
      first = elapsed;
    int ok = first > 0 && fabs(elapsed - visit * first) <= 1e-9 * elapsed;
    failures += !ok;
    printf("rank %d: SMPI_SAMPLE_LOCAL visit %d: %d iterations, body ran %d times, %s\n", rank, visit, iterations, ran,
           ok ? "time = iterations x mean" : "WRONG TIME");
  }
  int ran = 0;
  SMPI_SAMPLE_LOCAL(int i = 0, i < 50, i++, 1000, 1.0)
  {
    work();
    ++ran;
  }
  printf("rank %d: SMPI_SAMPLE_LOCAL with threshold 1: body ran %d times\n", rank, ran);
}

static void global_sampling(int rank)
{
  int ran = 0, total = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  SMPI_SAMPLE_GLOBAL(int i = 0, i < 20, i++, 5, -1)
  {
    work();
    ++ran;
  }
  double elapsed = since(start), shortest = 0, longest = 0;
  MPI_Reduce(&ran, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &shortest, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int ok = shortest > 0 && longest - shortest <= 1e-9 * longest;
    failures += !ok;
    printf("SMPI_SAMPLE_GLOBAL: 20 iterations per rank, body ran %d times over all ranks, %s\n", total,
           ok ? "every rank's loop took the same time" : "LOOP TIMES DIFFER");
  }
}

/* Samples the site until `limit` bodies have run in this pass; returns how many ran. */
static int sample_until(int limit)
{
  int ran = 0;
  SMPI_SAMPLE_LOCAL(int i = 0, i < 20, i++, 5, -1)
  {
    work();
    if (++ran == limit)
      break;
  }
  return ran;
}

/* A loop left by `break` ends its pass (its iterations so far are injected); the next pass samples on. */
static void left_by_break(int rank)
{
  int ran = sample_until(2);
  MPI_Barrier(MPI_COMM_WORLD);
  int again = sample_until(100);
  printf("rank %d: break after %d bodies, then the next pass ran %d bodies\n", rank, ran, again);
}

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double start = MPI_Wtime();
  wtime_cost = MPI_Wtime() - start;
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "mpi-in-body") == 0) {
    SMPI_SAMPLE_LOCAL(int i = 0, i < 4, i++, 2, -1)
    {
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
  if (strcmp(mode, "nested") == 0) {
    SMPI_SAMPLE_LOCAL(int i = 0, i < 4, i++, 2, -1)
    {
      SMPI_SAMPLE_LOCAL(int j = 0, j < 4, j++, 2, -1)
      {
        work();
      }
    }
  }
  if (strcmp(mode, "wtime-in-body") == 0) {
    double first = -1, last = -1;
    SMPI_SAMPLE_LOCAL(int i = 0, i < 4, i++, 2, -1)
    {
      last = MPI_Wtime();
      if (first < 0)
        first = last;
      work();
    }
    printf("rank %d: MPI_Wtime in a sampled body: %s\n", rank, last >= first ? "ok" : "went back");
    MPI_Finalize();
    return 0;
  }
  if (strcmp(mode, "break") == 0) {
    left_by_break(rank);
    MPI_Finalize();
    return 0;
  }
  injected_time(rank);
  local_sampling(rank);
  global_sampling(rank);
  int all_failures = 0;
  MPI_Reduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d failures\n", all_failures);
  MPI_Finalize();
  return 0;
}
