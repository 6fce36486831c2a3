#include "online/runtime/ThreadCpuClock.hpp"

#include "online/runtime/RealLibc.hpp"

#include <ctime>
#include <fstream>
#include <string>

namespace mpisim::online {

namespace {

double seconds(const timespec& time)
{
  return static_cast<double>(time.tv_sec) + 1e-9 * static_cast<double>(time.tv_nsec);
}

// The counter's rate is measured between the first read and later ones, from 10 ms apart (the monotonic clock's
// dates are good to tens of nanoseconds: a few parts per million), and refined at every read after.
constexpr double kCalibrationSpan = 10e-3;
// A read whose two monotonic dates are further apart than this was interrupted: its date is not precise enough to
// measure the rate with.
constexpr double kSteadyRead = 5e-6;
// A rate outside 100 MHz to 100 GHz is no time-stamp counter's: the counter is not used.
constexpr double kFastestTick = 1e-11;
constexpr double kSlowestTick = 1e-8;

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

// The kernel keeps time with the time-stamp counter only when its rate is constant (also in deep sleep states) and it
// is synchronized across cores; otherwise it chooses another clock source.
bool ThreadCpuClock::counter_usable()
{
#if defined(__x86_64__)
  std::ifstream source("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  return static_cast<bool>(source >> name) && name == "tsc";
#else
  return false;
#endif
}

// The system call takes a few hundred nanoseconds and samples the CPU clock somewhere inside: the read is dated
// halfway between the real-time reads around it, so that extrapolations from it are off by neither half.
double ThreadCpuClock::read()
{
  const double wall_before = monotonic_time();
  const uint64_t ticks_before = use_counter_ ? counter() : 0;
  read_cpu_ = thread_cpu_time();
  const uint64_t ticks_after = use_counter_ ? counter() : 0;
  const double wall_after = monotonic_time();
  read_wall_ = 0.5 * (wall_before + wall_after);
  read_ticks_ = ticks_before + (ticks_after - ticks_before) / 2;
  ++reads_;
  if (ticks_after < ticks_before) // the counter went back (another core's): it does not tell time here after all
    stop_counting();
  else if (use_counter_ && wall_after - wall_before < kSteadyRead)
    calibrate(read_ticks_, read_wall_);
  return read_cpu_ + (wall_after - read_wall_);
}

void ThreadCpuClock::calibrate(uint64_t ticks, double wall)
{
  if (first_wall_ < 0) {
    first_ticks_ = ticks;
    first_wall_ = wall;
    return;
  }
  const double span = wall - first_wall_;
  if (span < kCalibrationSpan)
    return;
  const double seconds_per_tick = ticks > first_ticks_ ? span / static_cast<double>(ticks - first_ticks_) : 0;
  if (seconds_per_tick < kFastestTick || seconds_per_tick > kSlowestTick) {
    stop_counting();
    return;
  }
  seconds_per_tick_ = seconds_per_tick;
  resync_ticks_ = static_cast<uint64_t>(resync_ / seconds_per_tick_);
}

void ThreadCpuClock::stop_counting()
{
  use_counter_ = false;
  seconds_per_tick_ = 0;
}

} // namespace mpisim::online
