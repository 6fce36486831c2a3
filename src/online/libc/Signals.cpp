// Signals, rank by rank (docs/online.md, "The C library, rank by rank").
//
// The real-time interval timer (alarm, ualarm, setitimer and getitimer with ITIMER_REAL) is the calling rank's own
// and counts simulated time: it expires at a simulated date, and SIGALRM is raised in that rank then, even while it
// waits in an MPI call (runtime/RankSignals.hpp). kill() on a rank's process id (getpid: kFirstRankPid + rank) sends
// the signal to that rank the same way. The dispositions of the signals mpisim itself handles (crashes, SIGALRM,
// SIGUSR1/2) are each rank's own, recorded rather than installed, so that mpisim's handler stays and hands them on
// (runtime/ProgramSignals.hpp). Outside a rank, under --real-clocks, and for everything else: the C library's.
#include "online/libc/Caller.hpp"
#include "online/runtime/ProgramSignals.hpp"
#include "online/runtime/RealLibc.hpp"

#include <sys/time.h>

#include <cerrno>
#include <cmath>
#include <csignal>

using namespace mpisim::online;

namespace {

double seconds_of(const timeval& time)
{
  return static_cast<double>(time.tv_sec) + 1e-6 * static_cast<double>(time.tv_usec);
}

// To the nearest microsecond; a timer about to expire is never reported as 0 (as the kernel reports it).
timeval as_timeval(double seconds)
{
  const double microseconds = seconds > 0 ? std::max(1.0, std::round(seconds * 1e6)) : 0.0;
  const auto whole = static_cast<time_t>(microseconds / 1e6);
  return {whole, static_cast<suseconds_t>(microseconds - static_cast<double>(whole) * 1e6)};
}

itimerval as_itimerval(TimerSetting setting)
{
  return {as_timeval(setting.interval), as_timeval(setting.left)};
}

TimerSetting set_own_timer(TimerSetting setting)
{
  return Runtime::get().signals().set_timer(Runtime::libc_rank(), setting);
}

} // namespace

// Timers -------------------------------------------------------------------------------------------------------------

extern "C" unsigned int alarm(unsigned int seconds) noexcept
{
  if (not caller_time_is_simulated())
    return real::alarm(seconds);
  const double left = set_own_timer({static_cast<double>(seconds), 0}).left;
  // As Linux: the seconds left rounded to the nearest, and a timer still armed never reported as 0.
  return left > 0 ? std::max(1U, static_cast<unsigned int>(std::lround(left))) : 0;
}

extern "C" useconds_t ualarm(useconds_t microseconds, useconds_t interval) noexcept
{
  if (not caller_time_is_simulated())
    return real::ualarm(microseconds, interval);
  const TimerSetting previous = set_own_timer({1e-6 * microseconds, 1e-6 * interval});
  return static_cast<useconds_t>(as_timeval(previous.left).tv_sec * 1000000 + as_timeval(previous.left).tv_usec);
}

extern "C" int setitimer(__itimer_which_t which, const itimerval* value, itimerval* previous) noexcept
{
  if (which != ITIMER_REAL || not caller_time_is_simulated())
    return real::setitimer(which, value, previous);
  if (value == nullptr || value->it_value.tv_usec < 0 || value->it_value.tv_usec >= 1000000 ||
      value->it_interval.tv_usec < 0 || value->it_interval.tv_usec >= 1000000 || value->it_value.tv_sec < 0 ||
      value->it_interval.tv_sec < 0) {
    errno = value == nullptr ? EFAULT : EINVAL;
    return -1;
  }
  const TimerSetting old = set_own_timer({seconds_of(value->it_value), seconds_of(value->it_interval)});
  if (previous != nullptr)
    *previous = as_itimerval(old);
  return 0;
}

extern "C" int getitimer(__itimer_which_t which, itimerval* value) noexcept
{
  if (which != ITIMER_REAL || not caller_time_is_simulated())
    return real::getitimer(which, value);
  if (value == nullptr) {
    errno = EFAULT;
    return -1;
  }
  *value = as_itimerval(Runtime::get().signals().timer(Runtime::libc_rank()));
  return 0;
}

// Sending ------------------------------------------------------------------------------------------------------------

extern "C" int kill(pid_t pid, int signal) noexcept
{
  const int rank = pid - kFirstRankPid;
  if (Runtime::libc_rank() < 0 || rank < 0 || rank >= Runtime::get().world().size())
    return real::kill(pid, signal);
  if (signal < 0 || signal >= NSIG) {
    errno = EINVAL;
    return -1;
  }
  if (signal == 0) // the process exists
    return 0;
  if (rank == Runtime::libc_rank()) { // to itself: handled before kill returns, as in a process
    program_signals::deliver(rank, signal);
    return 0;
  }
  Runtime::get().signals().send(rank, signal);
  return 0;
}

// Dispositions -------------------------------------------------------------------------------------------------------

extern "C" int sigaction(int signal, const struct sigaction* action, struct sigaction* previous) noexcept
{
  if (not program_signals::keeping(signal))
    return real::sigaction(signal, action, previous);
  const int rank = Runtime::libc_rank();
  if (previous != nullptr)
    *previous = program_signals::disposition(rank, signal);
  if (action != nullptr)
    program_signals::set_disposition(rank, signal, *action);
  return 0;
}

// glibc's signal(): BSD semantics (the handler stays, interrupted calls restart).
extern "C" sighandler_t signal(int signal, sighandler_t handler) noexcept
{
  struct sigaction action {};
  action.sa_handler = handler;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  struct sigaction previous {};
  if (sigaction(signal, &action, &previous) != 0)
    return SIG_ERR;
  return previous.sa_handler;
}
