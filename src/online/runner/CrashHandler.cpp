#include "online/runner/CrashHandler.hpp"

#include "online/runtime/Runtime.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace mpisim::online {

namespace {

void report_crash(int signal)
{
  // Not async-signal-safe in general; the process is about to end and the simulator's state is not being modified.
  if (Runtime::active())
    Runtime::get().end_output(); // the crashing rank's last lines, tagged, before the report
  std::fflush(stdout);
  char line[256];
  int length = 0;
  if (Runtime::active())
    length = std::snprintf(line, sizeof line, "mpisim: rank %d received signal %d (%s) at simulated time %.9f s\n",
                           Runtime::get().running_rank(), signal, strsignal(signal), Runtime::get().now());
  else
    length = std::snprintf(line, sizeof line, "mpisim: received signal %d (%s)\n", signal, strsignal(signal));
  [[maybe_unused]] ssize_t written = write(STDERR_FILENO, line, static_cast<size_t>(length));
  _exit(128 + signal);
}

} // namespace

void install_crash_handler()
{
  static char alternate_stack[64 * 1024];
  stack_t stack{};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_handler = report_crash;
  action.sa_flags = SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT})
    sigaction(signal, &action, nullptr);
}

} // namespace mpisim::online
