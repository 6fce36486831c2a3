#include "online/runtime/ProgramSignals.hpp"

#include <array>
#include <vector>

namespace mpisim::online::program_signals {

namespace {
using Dispositions = std::array<struct sigaction, NSIG>; // zero: SIG_DFL, no flags
std::vector<Dispositions> g_dispositions;                // by rank + 1
bool g_keeping = false;

Dispositions& of_rank(int rank)
{
  const size_t index = static_cast<size_t>(rank) + 1; // rank -1 (outside ranks) wraps to 0
  if (index >= g_dispositions.size())
    g_dispositions.resize(index + 1, Dispositions{});
  return g_dispositions[index];
}
} // namespace

bool concerned(int signal)
{
  switch (signal) {
  case SIGSEGV:
  case SIGBUS:
  case SIGFPE:
  case SIGILL:
  case SIGABRT:
  case SIGALRM:
  case SIGUSR1:
  case SIGUSR2: return true;
  default: return false;
  }
}

void start_keeping()
{
  g_keeping = true;
}

bool keeping(int signal)
{
  return g_keeping && concerned(signal);
}

struct sigaction disposition(int rank, int signal)
{
  return of_rank(rank).at(static_cast<size_t>(signal));
}

void set_disposition(int rank, int signal, const struct sigaction& action)
{
  of_rank(rank).at(static_cast<size_t>(signal)) = action;
}

void deliver(int rank, int signal)
{
  struct sigaction program = disposition(rank, signal);
  if (not keeping(signal) || program.sa_handler == SIG_DFL) {
    std::raise(signal);
    return;
  }
  if (program.sa_handler == SIG_IGN)
    return;
  if (program.sa_flags & SA_RESETHAND)
    set_disposition(rank, signal, {});
  if (program.sa_flags & SA_SIGINFO) {
    siginfo_t info{};
    info.si_signo = signal;
    info.si_code = SI_USER;
    program.sa_sigaction(signal, &info, nullptr);
  } else {
    program.sa_handler(signal);
  }
}

} // namespace mpisim::online::program_signals
