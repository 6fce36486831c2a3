// The program's own dispositions of the signals mpisim handles itself while a program runs.
//
// mpisim's handler (runner/CrashHandler.cpp) must stay installed for the signals that end a rank, so that a crash
// names the rank and a stack overflow is told apart; and a signal a rank's simulated timer or another rank sends it
// must reach the program's handler in that rank. So the program's sigaction() and signal() calls on these signals
// (online/libc/Signals.cpp) record the disposition here instead of installing it, and mpisim's handler hands each
// signal to the recorded disposition: the program's handler, ignored, or by default the end of the run with a
// report. Each rank has its own dispositions of these signals, as each process of a real run has; rank -1 is code
// outside any rank.
#pragma once

#include <csignal>

namespace mpisim::online::program_signals {

// The signals concerned: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT (crashes), SIGALRM, SIGUSR1, SIGUSR2 (sent to
// ranks: timers, kill between ranks).
bool concerned(int signal);
// Called once mpisim's handler is installed for them; before, and for other signals, sigaction() is the C library's.
void start_keeping();
bool keeping(int signal);

struct sigaction disposition(int rank, int signal);
void set_disposition(int rank, int signal, const struct sigaction& action);

// Delivers `signal` in the calling context, as a signal sent by a timer or another process: to the program's
// recorded handler, called directly (on the rank's own stack, no signal mask: it may call what a rank may), or
// ignored; left to its default, or not kept here, it is raised for real (mpisim's handler then reports it).
void deliver(int rank, int signal);

} // namespace mpisim::online::program_signals
