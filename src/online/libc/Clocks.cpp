// Time as the program sees it: every clock the C library offers reads the rank's simulated time, and sleeps pass in
// simulated time without sleeping (docs/online.md, "Time"). std::chrono's clocks and std::this_thread::sleep_for
// reach these through the C++ library.
//
// Wall clocks (realtime, monotonic, boot time, ...) give the simulated date, as MPI_Wtime does: the computation since
// the rank last left the MPI library is injected first, and --wtime-delay is spent after reading, so that a loop
// polling a clock sees it advance. Simulated date 0 is 1970-01-01 00:00:00 UTC on the real-time clocks, as under
// smpirun: a program prints the same dates under both, run after run. CPU-time clocks (clock, times, getrusage,
// CLOCK_PROCESS/THREAD_CPUTIME_ID) give the rank's simulated computation.
//
// Outside a rank, and under --real-clocks, the C library's own functions answer (RealLibc.hpp).
#include "online/libc/Caller.hpp"
#include "online/runtime/RealLibc.hpp"

#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <ctime>

using namespace mpisim::online;

namespace {

enum class ClockKind { Wall, Cpu, Other };

ClockKind kind_of(clockid_t clock)
{
  switch (clock) {
  case CLOCK_REALTIME:
  case CLOCK_MONOTONIC:
  case CLOCK_MONOTONIC_RAW:
  case CLOCK_REALTIME_COARSE:
  case CLOCK_MONOTONIC_COARSE:
  case CLOCK_BOOTTIME:
  case CLOCK_REALTIME_ALARM:
  case CLOCK_BOOTTIME_ALARM:
  case CLOCK_TAI: return ClockKind::Wall;
  case CLOCK_PROCESS_CPUTIME_ID:
  case CLOCK_THREAD_CPUTIME_ID: return ClockKind::Cpu;
  default: // negative: the CPU clock of a process or thread (clock_getcpuclockid, pthread_getcpuclockid)
    return clock < 0 ? ClockKind::Cpu : ClockKind::Other;
  }
}

// Under --no-compute-time the ranks' computation is not simulated, so their CPU-time clocks are the real ones: a
// program that computes until its CPU clock says so still gets there.
bool cpu_time_is_simulated()
{
  return caller_time_is_simulated() && Runtime::get().options().compute_time;
}

bool simulated_clock(clockid_t clock)
{
  switch (kind_of(clock)) {
  case ClockKind::Wall: return caller_time_is_simulated();
  case ClockKind::Cpu: return cpu_time_is_simulated();
  default: return false;
  }
}

double read_simulated(clockid_t clock)
{
  Runtime& runtime = Runtime::get();
  return kind_of(clock) == ClockKind::Cpu ? runtime.read_cpu_clock() : runtime.read_clock();
}

// Truncated, as the kernel's clocks are.
timespec as_timespec(double seconds)
{
  const double whole = std::floor(seconds);
  const long nanoseconds = std::min(static_cast<long>((seconds - whole) * 1e9), 999999999L);
  return {static_cast<time_t>(whole), nanoseconds};
}

double seconds_of(const timespec& time)
{
  // Divided, as SMPI does: the last bit decides which of two sleeps ending together ends first.
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_nsec) / 1e9;
}

bool valid_duration(const timespec* duration)
{
  return duration != nullptr && duration->tv_sec >= 0 && duration->tv_nsec >= 0 && duration->tv_nsec <= 999999999;
}

// Sleeps in simulated time until `date` (nothing when it is past); the computation before is injected first.
void sleep_until(double date)
{
  Runtime& runtime = Runtime::get();
  runtime.rank().note_clock_read(); // a loop that sleeps between polls is not fast-forwarded past its sleeps
  runtime.flush_computation();
  if (date > runtime.now())
    runtime.sleep(date - runtime.now());
  runtime.restart_computation();
}

clock_t clock_ticks(double seconds)
{
  return static_cast<clock_t>(seconds * static_cast<double>(sysconf(_SC_CLK_TCK)));
}

} // namespace

// Clocks -------------------------------------------------------------------------------------------------------------

extern "C" int clock_gettime(clockid_t clock, timespec* time) noexcept
{
  if (not simulated_clock(clock))
    return real::clock_gettime(clock, time);
  *time = as_timespec(read_simulated(clock));
  return 0;
}

extern "C" int gettimeofday(timeval* time, void* zone) noexcept
{
  if (not caller_time_is_simulated())
    return real::gettimeofday(time, zone);
  if (zone != nullptr) // obsolete: no time zone
    *static_cast<struct timezone*>(zone) = {};
  const timespec now = as_timespec(Runtime::get().read_clock());
  *time = {now.tv_sec, static_cast<suseconds_t>(now.tv_nsec / 1000)};
  return 0;
}

extern "C" time_t time(time_t* result) noexcept
{
  if (not caller_time_is_simulated())
    return real::time(result);
  const auto now = static_cast<time_t>(std::floor(Runtime::get().read_clock()));
  if (result != nullptr)
    *result = now;
  return now;
}

extern "C" int timespec_get(timespec* time, int base) noexcept
{
  if (not caller_time_is_simulated())
    return real::timespec_get(time, base);
  if (base != TIME_UTC)
    return 0;
  *time = as_timespec(Runtime::get().read_clock());
  return base;
}

extern "C" clock_t clock() noexcept
{
  if (not cpu_time_is_simulated())
    return real::clock();
  return static_cast<clock_t>(Runtime::get().read_cpu_clock() * CLOCKS_PER_SEC);
}

extern "C" clock_t times(tms* buffer) noexcept
{
  if (not caller_time_is_simulated())
    return real::times(buffer);
  Runtime& runtime = Runtime::get();
  if (buffer != nullptr && cpu_time_is_simulated())
    *buffer = {clock_ticks(runtime.read_cpu_clock()), 0, 0, 0};
  else if (buffer != nullptr)
    real::times(buffer);
  return clock_ticks(runtime.read_clock());
}

extern "C" int getrusage(__rusage_who_t who, rusage* usage) noexcept
{
  const int status = real::getrusage(who, usage); // the memory and I/O figures are the process's
  if (status != 0 || not cpu_time_is_simulated() || (who != RUSAGE_SELF && who != RUSAGE_THREAD))
    return status;
  const timespec user = as_timespec(Runtime::get().read_cpu_clock());
  usage->ru_utime = {user.tv_sec, static_cast<suseconds_t>(user.tv_nsec / 1000)};
  usage->ru_stime = {};
  return 0;
}

// Sleeps -------------------------------------------------------------------------------------------------------------

extern "C" unsigned int sleep(unsigned int seconds)
{
  if (not caller_time_is_simulated())
    return real::sleep(seconds);
  Runtime::get().sleep_for(seconds);
  return 0;
}

extern "C" int usleep(useconds_t microseconds)
{
  if (not caller_time_is_simulated())
    return real::usleep(microseconds);
  Runtime::get().sleep_for(static_cast<double>(microseconds) / 1e6); // as SMPI: the last bit decides ties
  return 0;
}

extern "C" int nanosleep(const timespec* duration, timespec* remaining)
{
  if (not caller_time_is_simulated())
    return real::nanosleep(duration, remaining);
  if (not valid_duration(duration)) {
    errno = EINVAL;
    return -1;
  }
  Runtime::get().sleep_for(seconds_of(*duration));
  return 0;
}

extern "C" int clock_nanosleep(clockid_t clock, int flags, const timespec* duration, timespec* remaining)
{
  if (kind_of(clock) != ClockKind::Wall || not caller_time_is_simulated())
    return real::clock_nanosleep(clock, flags, duration, remaining);
  if (not valid_duration(duration))
    return EINVAL; // clock_nanosleep returns the error rather than setting errno
  Runtime& runtime = Runtime::get();
  runtime.flush_computation();
  const double date = (flags & TIMER_ABSTIME) ? seconds_of(*duration) : runtime.now() + seconds_of(*duration);
  sleep_until(date);
  return 0;
}
