#include "online/runner/CrashHandler.hpp"

#include "online/runtime/ProgramSignals.hpp"
#include "online/runtime/RealLibc.hpp"
#include "online/runtime/Runtime.hpp"

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <ucontext.h>
#include <unistd.h>

namespace mpisim::online {

namespace {

size_t g_stack_size = 0;

// The faulting code's stack pointer, from the signal's saved context (0 where the architecture is not known).
uintptr_t stack_pointer(const void* context)
{
  const auto* saved = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(saved->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(saved->uc_mcontext.sp);
#else
  (void)saved;
  return 0;
#endif
}

// "8 MiB", "64 KiB": the stack size as --stack-size reads it back.
std::string stack_size_text(size_t bytes)
{
  char text[32];
  if (bytes % (size_t{1} << 20) == 0)
    std::snprintf(text, sizeof text, "%zuMiB", bytes >> 20);
  else
    std::snprintf(text, sizeof text, "%zuKiB", bytes >> 10);
  return text;
}

// The rank the signal came to: the one whose actor runs (a signal sent by a timer or another rank is raised in the
// rank's own actor), else the last one known to run.
int signalled_rank()
{
  if (not Runtime::active())
    return -1;
  const int rank = Runtime::libc_rank();
  return rank >= 0 ? rank : Runtime::get().running_rank();
}

void report_crash(int signal, bool overflow)
{
  // Not async-signal-safe in general; the process is about to end and the simulator's state is not being modified.
  const int rank = signalled_rank();
  const bool in_rank = rank >= 0;
  if (Runtime::active())
    Runtime::get().end_output(); // the crashing rank's last lines, tagged, before the report
  std::fflush(stdout);
  char line[512];
  int length = 0;
  if (overflow)
    length = std::snprintf(line, sizeof line,
                           "mpisim: rank %d overflowed its stack (--stack-size %s) at simulated time %.9f s: run "
                           "with a larger --stack-size, such as --stack-size %s\n",
                           rank, stack_size_text(g_stack_size).c_str(), Runtime::get().now(),
                           stack_size_text(4 * g_stack_size).c_str());
  else if (in_rank)
    length = std::snprintf(line, sizeof line, "mpisim: rank %d received signal %d (%s) at simulated time %.9f s\n",
                           rank, signal, strsignal(signal), Runtime::get().now());
  else
    length = std::snprintf(line, sizeof line, "mpisim: received signal %d (%s)\n", signal, strsignal(signal));
  length = std::min(length, static_cast<int>(sizeof line) - 1);
  [[maybe_unused]] ssize_t written = write(STDERR_FILENO, line, static_cast<size_t>(length));
  if (Runtime::active()) {
    RunEnd end{.outcome = Outcome::Crash,
               .exit_status = 128 + signal,
               .application_status = std::nullopt,
               .report = std::string(line, length - 1)};
    Runtime::get().run_ended(end);
  }
  _exit(128 + signal);
}

// Whether the program's recorded disposition takes the signal: its handler runs, or it is ignored. A fault cannot be
// ignored (the instruction would fault again): ignoring SIGSEGV and the like leaves it to the default, the report.
bool program_takes(int rank, int signal, siginfo_t* info, void* context)
{
  struct sigaction program = program_signals::disposition(rank, signal);
  const bool fault = signal != SIGABRT && info != nullptr && info->si_code > 0;
  if (program.sa_handler == SIG_IGN)
    return not fault;
  if (program.sa_handler == SIG_DFL)
    return false;
  if (program.sa_flags & SA_RESETHAND)
    program_signals::set_disposition(rank, signal, {});
  if (program.sa_flags & SA_SIGINFO)
    program.sa_sigaction(signal, info, context);
  else
    program.sa_handler(signal);
  return true;
}

// mpisim's handler of the signals ProgramSignals.hpp names: a stack overflow is reported as such; otherwise the
// program's own disposition decides, and the default ends the run with a report naming the rank.
void on_signal(int signal, siginfo_t* info, void* context)
{
  const int rank = signalled_rank();
  const bool overflow = rank >= 0 && (signal == SIGSEGV || signal == SIGBUS) &&
                        Runtime::get().running_rank_overflows_stack(info->si_addr, stack_pointer(context));
  if (not overflow && program_takes(rank, signal, info, context))
    return;
  report_crash(signal, overflow);
}

} // namespace

void install_crash_handler(size_t stack_size)
{
  g_stack_size = stack_size;
  static char alternate_stack[256 * 1024]; // room for the summary too
  stack_t stack{};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_ONSTACK | SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (int signal = 1; signal < NSIG; ++signal)
    if (program_signals::concerned(signal))
      real::sigaction(signal, &action, nullptr);
  program_signals::start_keeping();
}

} // namespace mpisim::online
