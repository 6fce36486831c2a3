// A rank that crashes (SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT) ends the run with a report naming the rank, the
// signal and the simulated time. The handler runs on its own stack, so a rank's stack overflow is reported too.
#pragma once

namespace mpisim::online {

void install_crash_handler();

} // namespace mpisim::online
