#include "online/bindings/WindowArguments.hpp"

namespace mpisim::online {

int resolve_window(Runtime& runtime, MPI_Win win, const char* call, WindowAccess& out)
{
  Window* window = runtime.has_windows() ? runtime.windows().find(win) : nullptr;
  if (window != nullptr) {
    const mpi::Communicator* channel = runtime.comm(window->channel);
    const int local_rank = channel->local_rank(runtime.current_rank());
    if (WindowPart* part = runtime.windows().part(*window, local_rank)) {
      out = WindowAccess{window, part, local_rank, channel};
      return MPI_SUCCESS;
    }
  }
  return runtime.windows().raise_invalid(runtime, win, MPI_COMM_WORLD, call);
}

int raise_window_error(Runtime& runtime, MPI_Win win, int error_class, const char* call, const std::string& what)
{
  Window* window = runtime.has_windows() ? runtime.windows().find(win) : nullptr;
  const mpi::Communicator* channel = window ? runtime.comm(window->channel) : nullptr;
  WindowPart* part = channel ? runtime.windows().part(*window, channel->local_rank(runtime.current_rank())) : nullptr;
  if (part == nullptr)
    return raise_error(runtime, MPI_COMM_WORLD, error_class, call, what);
  return raise_through_handler(runtime, part->errhandler, win, error_class, call, what);
}

} // namespace mpisim::online
