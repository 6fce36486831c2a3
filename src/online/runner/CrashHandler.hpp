// A rank that crashes (SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT) ends the run with a report naming the rank, the
// signal and the simulated time, and the summary (outcome "crash"). The handler runs on its own stack, so that a
// rank overflowing its stack is reported too, as a stack overflow with the --stack-size that would be needed.
#pragma once

#include <cstddef>

namespace mpisim::online {

void install_crash_handler(size_t stack_size);

} // namespace mpisim::online
