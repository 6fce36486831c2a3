// Argument resolution of the window families (api_windows.cpp, api_rma.cpp): an MPI_Win handle to the calling
// rank's part of the window, and errors raised through the window's handler.
#pragma once

#include "online/bindings/Api.hpp"
#include "online/objects/Windows.hpp"

namespace mpisim::online {

// MPI_SUCCESS and `out` filled, or MPI_ERR_WIN raised on MPI_COMM_WORLD (a handle that is not a window of the calling
// rank has no handler of its own).
int resolve_window(Runtime& runtime, MPI_Win win, const char* call, WindowAccess& out);
// Raises `error_class` through the calling rank's handler of `win` (MPI_ERRORS_ARE_FATAL unless set), as raise_error
// does for communicators; MPI_COMM_WORLD's handler when `win` is not one of the rank's windows.
int raise_window_error(Runtime& runtime, MPI_Win win, int error_class, const char* call, const std::string& what);

} // namespace mpisim::online

// Argument checks of window calls: `return` the error raised through the window's handler, naming `call`.
#define MPISIM_WIN_CHECK(runtime, condition, win, error_class, call, what)                                             \
  do {                                                                                                                 \
    if (not(condition))                                                                                                \
      return ::mpisim::online::raise_window_error(runtime, win, error_class, call, what);                              \
  } while (0)
