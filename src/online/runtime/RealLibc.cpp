#include "online/runtime/RealLibc.hpp"

#include <dlfcn.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace mpisim::online::real {

namespace {

// The definition that the program would reach without libmpisim-mpi.so, resolved once.
template <class Function> Function* next_definition(const char* name)
{
  void* symbol = dlsym(RTLD_NEXT, name);
  if (symbol == nullptr) {
    std::fprintf(stderr, "mpisim: the C library has no %s\n", name);
    std::abort();
  }
  return reinterpret_cast<Function*>(symbol);
}

} // namespace

#define MPISIM_REAL(name) static auto* const function = next_definition<decltype(::name)>(#name)

int clock_gettime(clockid_t clock, timespec* time)
{
  MPISIM_REAL(clock_gettime);
  return function(clock, time);
}

int gettimeofday(timeval* time, void* zone)
{
  MPISIM_REAL(gettimeofday);
  return function(time, zone);
}

time_t time(time_t* result)
{
  MPISIM_REAL(time);
  return function(result);
}

clock_t clock()
{
  MPISIM_REAL(clock);
  return function();
}

clock_t times(tms* buffer)
{
  MPISIM_REAL(times);
  return function(buffer);
}

int getrusage(int who, rusage* usage)
{
  MPISIM_REAL(getrusage);
  return function(who, usage);
}

int timespec_get(timespec* time, int base)
{
  MPISIM_REAL(timespec_get);
  return function(time, base);
}

unsigned int sleep(unsigned int seconds)
{
  MPISIM_REAL(sleep);
  return function(seconds);
}

int usleep(unsigned int microseconds)
{
  MPISIM_REAL(usleep);
  return function(microseconds);
}

int nanosleep(const timespec* duration, timespec* remaining)
{
  MPISIM_REAL(nanosleep);
  return function(duration, remaining);
}

int clock_nanosleep(clockid_t clock, int flags, const timespec* duration, timespec* remaining)
{
  MPISIM_REAL(clock_nanosleep);
  return function(clock, flags, duration, remaining);
}

int gethostname(char* name, size_t length)
{
  MPISIM_REAL(gethostname);
  return function(name, length);
}

int uname(utsname* name)
{
  MPISIM_REAL(uname);
  return function(name);
}

int getpid()
{
  MPISIM_REAL(getpid);
  return function();
}

int sigaction(int signal, const struct sigaction* action, struct sigaction* previous)
{
  MPISIM_REAL(sigaction);
  return function(signal, action, previous);
}

int kill(int pid, int signal)
{
  MPISIM_REAL(kill);
  return function(pid, signal);
}

unsigned int alarm(unsigned int seconds)
{
  MPISIM_REAL(alarm);
  return function(seconds);
}

unsigned int ualarm(unsigned int microseconds, unsigned int interval)
{
  MPISIM_REAL(ualarm);
  return function(microseconds, interval);
}

int setitimer(int which, const itimerval* value, itimerval* previous)
{
  MPISIM_REAL(setitimer);
  return function(static_cast<__itimer_which_t>(which), value, previous);
}

int getitimer(int which, itimerval* value)
{
  MPISIM_REAL(getitimer);
  return function(static_cast<__itimer_which_t>(which), value);
}

} // namespace mpisim::online::real
