// The C library's own definitions of the functions mpisim gives each rank its own version of (online/libc/).
//
// libmpisim-mpi.so defines clock_gettime, getopt, rand, ... under their libc names, so that the program's calls and
// the C++ library's (std::chrono) resolve to them. Its own code would resolve to them too: whatever mpisim itself
// needs of the real clocks (measuring the host's CPU time) and the interposed functions' fallbacks (outside a rank,
// --real-clocks) go through these, the next definitions after libmpisim-mpi.so in the lookup order (libc's).
#pragma once

#include <cstddef>
#include <ctime>

struct timeval;
struct tms;
struct rusage;
struct utsname;
struct option;
struct itimerval;
struct sigaction;

namespace mpisim::online::real {

int clock_gettime(clockid_t clock, timespec* time);
int gettimeofday(timeval* time, void* zone);
time_t time(time_t* result);
clock_t clock();
clock_t times(tms* buffer);
int getrusage(int who, rusage* usage);
int timespec_get(timespec* time, int base);
unsigned int sleep(unsigned int seconds);
int usleep(unsigned int microseconds);
int nanosleep(const timespec* duration, timespec* remaining);
int clock_nanosleep(clockid_t clock, int flags, const timespec* duration, timespec* remaining);
int gethostname(char* name, size_t length);
int uname(utsname* name);
int getpid();
int sigaction(int signal, const struct sigaction* action, struct sigaction* previous);
int kill(int pid, int signal);
unsigned int alarm(unsigned int seconds);
unsigned int ualarm(unsigned int microseconds, unsigned int interval);
int setitimer(int which, const itimerval* value, itimerval* previous);
int getitimer(int which, itimerval* value);

} // namespace mpisim::online::real
