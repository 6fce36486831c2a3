#include "online/runtime/ThreadCpuClock.hpp"

#include "online/runtime/RealLibc.hpp"

#include <ctime>

namespace mpisim::online {

namespace {
double seconds(const timespec& time)
{
  return static_cast<double>(time.tv_sec) + 1e-9 * static_cast<double>(time.tv_nsec);
}
} // namespace

double thread_cpu_time()
{
  timespec now{};
  real::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return seconds(now);
}

double monotonic_time()
{
  timespec now{};
  real::clock_gettime(CLOCK_MONOTONIC, &now);
  return seconds(now);
}

// The system call takes a few hundred nanoseconds and samples the CPU clock somewhere inside: the read is dated
// halfway between the monotonic reads around it, so that extrapolations from it are off by neither half.
double ThreadCpuClock::read(double wall_before)
{
  read_cpu_ = thread_cpu_time();
  const double wall_after = monotonic_time();
  read_wall_ = 0.5 * (wall_before + wall_after);
  ++reads_;
  return read_cpu_ + (wall_after - read_wall_);
}

} // namespace mpisim::online
