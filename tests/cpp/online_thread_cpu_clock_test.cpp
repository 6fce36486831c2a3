// ThreadCpuClock (src/online/runtime/ThreadCpuClock.hpp): the thread's CPU time read at most once per `resync` of
// real time, extrapolated with real time in between (the monotonic clock, or the time-stamp counter once its rate is
// measured); an absence from the CPU longer than `resync` is never counted. Real clocks: bounds are loose enough for
// a loaded machine (the thread may lose the CPU at any time). Each test runs with the monotonic clock and, where the
// kernel keeps time with it, the counter.
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

// Blocks in the kernel for `seconds` of real time (no CPU time). libmpisim-mpi.so's nanosleep, outside a rank, is the
// C library's.
void sleep_for(double seconds)
{
  const double end = monotonic_time() + seconds;
  for (double left = seconds; left > 0; left = end - monotonic_time()) {
    timespec duration{0, static_cast<long>(left * 1e9)};
    nanosleep(&duration, nullptr);
  }
}

class ThreadCpuClockTest : public testing::TestWithParam<bool> {
protected:
  void SetUp() override
  {
    if (GetParam() && not ThreadCpuClock::counter_usable())
      GTEST_SKIP() << "the kernel does not keep time with the time-stamp counter here";
  }
  ThreadCpuClock make(double resync) const { return ThreadCpuClock(resync, GetParam()); }
  // Queries the clock over `seconds` of computation, so that the counter's rate gets measured.
  static void warm_up(ThreadCpuClock& clock, double seconds)
  {
    for (const double start = thread_cpu_time(); thread_cpu_time() - start < seconds;)
      clock.now();
  }
};

TEST_P(ThreadCpuClockTest, FirstQueryReadsTheCpuClock)
{
  ThreadCpuClock clock = make(ThreadCpuClock::kDefaultResync);
  const double before = thread_cpu_time();
  const double now = clock.now();
  EXPECT_EQ(clock.reads(), 1U);
  EXPECT_FALSE(clock.counting()); // no rate yet
  EXPECT_GE(now, before);
  EXPECT_LT(now - before, 1e-3);
}

TEST_P(ThreadCpuClockTest, ExtrapolatesWithRealTimeWithinTheResyncPeriod)
{
  ThreadCpuClock clock = make(3600); // never reads again within the test
  const double wall = monotonic_time();
  const double start = clock.now();
  sleep_for(0.01);
  const double extrapolated = clock.now() - start;
  EXPECT_EQ(clock.reads(), 1U);
  // 10 ms of real time away from the CPU, counted as CPU time: within a period, real time is all it knows.
  EXPECT_GE(extrapolated, 0.01);
  EXPECT_LE(extrapolated, monotonic_time() - wall);
}

TEST_P(ThreadCpuClockTest, TheCounterTellsRealTimeOnceItsRateIsKnown)
{
  ThreadCpuClock clock = make(1e-3);
  warm_up(clock, 0.03);
  EXPECT_EQ(clock.counting(), GetParam());
  // 500 us of real time within one period (a read may fall inside: then the difference is exact CPU time, which,
  // computing, is the real time unless the thread lost the CPU; either way a wide bound).
  const unsigned long reads = clock.reads();
  const double wall = monotonic_time();
  const double start = clock.now();
  while (monotonic_time() - wall < 500e-6) {
  }
  const double extrapolated = clock.now() - start;
  const double elapsed = monotonic_time() - wall;
  if (clock.reads() == reads) {
    EXPECT_LE(extrapolated, elapsed);
    EXPECT_GE(extrapolated, 0.99 * 500e-6);
  }
}

TEST_P(ThreadCpuClockTest, AnAbsenceLongerThanTheResyncPeriodIsNotCounted)
{
  ThreadCpuClock clock = make(100e-6);
  warm_up(clock, 0.02);
  const unsigned long reads = clock.reads();
  const double start = clock.now();
  const double cpu = thread_cpu_time();
  sleep_for(0.02);
  const double measured = clock.now() - start;
  EXPECT_GT(clock.reads(), reads);
  // The sleep's own CPU time (system calls), not its 20 ms: within the period the estimate may exceed the CPU time
  // by the period at most.
  EXPECT_LT(measured, thread_cpu_time() - cpu + 100e-6 + 1e-6);
  EXPECT_LT(measured, 0.005);
}

TEST_P(ThreadCpuClockTest, ComputationIsMeasuredAsTheCpuClockMeasuresIt)
{
  ThreadCpuClock clock = make(100e-6);
  warm_up(clock, 0.02);
  const unsigned long reads = clock.reads();
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
  // At most one read per period of real time (plus one), however many queries.
  EXPECT_LE(clock.reads() - reads, static_cast<unsigned long>(elapsed / 100e-6) + 2);
  EXPECT_LT(clock.reads() - reads, queries);
}

INSTANTIATE_TEST_SUITE_P(RealTime, ThreadCpuClockTest, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "Counter" : "MonotonicClock";
                         });

} // namespace
