// ThreadCpuClock (src/online/runtime/ThreadCpuClock.hpp): the thread's CPU time read at most once per `resync` of
// real time, extrapolated with the monotonic clock in between; an absence from the CPU longer than `resync` is never
// counted. Real clocks: bounds are loose enough for a loaded machine (the thread may lose the CPU at any time).
#include "online/runtime/ThreadCpuClock.hpp"

#include <gtest/gtest.h>

#include <ctime>

using namespace mpisim::online;

namespace {

// Spins until the thread's CPU clock (read directly) has advanced by `seconds`.
void compute_for(double seconds)
{
  const double start = thread_cpu_time();
  volatile double x = 0;
  while (thread_cpu_time() - start < seconds)
    for (int i = 0; i < 1000; ++i)
      x = x * 0.5 + 1;
}

// Blocks in the kernel for `seconds` of real time (no CPU time): the C library's own nanosleep, not the one
// libmpisim-mpi.so gives ranks (outside a rank that one sleeps for real too).
void sleep_for(double seconds)
{
  const double end = monotonic_time() + seconds;
  for (double left = seconds; left > 0; left = end - monotonic_time()) {
    timespec duration{0, static_cast<long>(left * 1e9)};
    nanosleep(&duration, nullptr);
  }
}

TEST(ThreadCpuClock, FirstQueryReadsTheCpuClock)
{
  ThreadCpuClock clock;
  const double before = thread_cpu_time();
  const double now = clock.now();
  EXPECT_EQ(clock.reads(), 1U);
  EXPECT_GE(now, before);
  EXPECT_LT(now - before, 1e-3);
}

TEST(ThreadCpuClock, ExtrapolatesWithRealTimeWithinTheResyncPeriod)
{
  ThreadCpuClock clock(3600); // never reads again within the test
  const double wall = monotonic_time();
  const double start = clock.now();
  sleep_for(0.01);
  const double extrapolated = clock.now() - start;
  EXPECT_EQ(clock.reads(), 1U);
  // 10 ms of real time away from the CPU, counted as CPU time: within a period, real time is all it knows.
  EXPECT_GE(extrapolated, 0.01);
  EXPECT_LE(extrapolated, monotonic_time() - wall);
}

TEST(ThreadCpuClock, AnAbsenceLongerThanTheResyncPeriodIsNotCounted)
{
  ThreadCpuClock clock(100e-6);
  const double start = clock.now();
  const double cpu = thread_cpu_time();
  sleep_for(0.02);
  const double measured = clock.now() - start;
  EXPECT_EQ(clock.reads(), 2U);
  // The sleep's own CPU time (system calls), not its 20 ms: within the period the estimate may exceed the CPU time
  // by the period at most.
  EXPECT_LT(measured, thread_cpu_time() - cpu + 100e-6 + 1e-6);
  EXPECT_LT(measured, 0.005);
}

TEST(ThreadCpuClock, ComputationIsMeasuredAsTheCpuClockMeasuresIt)
{
  ThreadCpuClock clock(100e-6);
  const double start = clock.now();
  const double cpu = thread_cpu_time();
  const double wall = monotonic_time();
  unsigned long queries = 0;
  // 20 ms of CPU in 2 000 bursts of 10 us, the clock queried after each as an MPI call's entry would.
  double measured = 0;
  for (int burst = 0; burst < 2000; ++burst) {
    compute_for(10e-6);
    measured = clock.now() - start;
    ++queries;
  }
  const double true_cpu = thread_cpu_time() - cpu;
  const double elapsed = monotonic_time() - wall;
  // Off by the absences shorter than the period that fell inside one (a loaded machine has a few), never by more
  // than one period each; on an idle machine, by nanoseconds.
  EXPECT_NEAR(measured, true_cpu, 0.1 * true_cpu);
  // At most one read per period of real time (plus the first), however many queries.
  EXPECT_LE(clock.reads(), static_cast<unsigned long>(elapsed / 100e-6) + 2);
  EXPECT_LT(clock.reads(), queries);
}

} // namespace
