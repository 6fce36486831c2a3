// A rank that crashes (SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT) ends the run with a report naming the rank, the
// signal and the simulated time, and the summary (outcome "crash"). The handler runs on its own stack, so that a
// rank overflowing its stack is reported too, as a stack overflow with the --stack-size that would be needed. It
// also takes SIGALRM, SIGUSR1 and SIGUSR2 (a rank's simulated timer, kill between ranks). The program's own
// dispositions of these signals are kept aside (runtime/ProgramSignals.hpp) and honoured: its handler runs, in the
// rank the signal came to; a signal left to its default ends the run with the same report.
#pragma once

#include <cstddef>

namespace mpisim::online {

void install_crash_handler(size_t stack_size);

} // namespace mpisim::online
