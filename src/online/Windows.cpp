#include "online/Windows.hpp"

#include "online/Api.hpp"
#include "online/ProcessObjects.hpp"

#include <cstdio>

namespace mpisim::online {

void RmaEpoch::clear()
{
  operations_to.clear();
  requests.clear();
  payloads.clear();
  types.clear();
}

Window& Windows::join(int channel, int members)
{
  auto known = handle_of_channel_.find(channel);
  if (known != handle_of_channel_.end())
    return windows_.at(known->second);
  const int handle = next_handle_++;
  Window& window = windows_[handle];
  window.handle = handle;
  window.channel = channel;
  window.parts.resize(static_cast<size_t>(members));
  handle_of_channel_[channel] = handle;
  return window;
}

Window* Windows::find(int handle)
{
  auto found = windows_.find(handle);
  return found == windows_.end() ? nullptr : &found->second;
}

WindowPart* Windows::part(Window& window, int local_rank)
{
  if (local_rank < 0 || local_rank >= static_cast<int>(window.parts.size()))
    return nullptr;
  WindowPart& part = window.parts[static_cast<size_t>(local_rank)];
  return part.live ? &part : nullptr;
}

void Windows::leave(Window& window, int local_rank)
{
  window.parts[static_cast<size_t>(local_rank)].live = false;
  if (--window.live_parts > 0)
    return;
  handle_of_channel_.erase(window.channel);
  windows_.erase(window.handle);
}

int resolve_window(MPI_Win win, const char* call, WindowAccess& out)
{
  Runtime& runtime = Runtime::get();
  Window* window = runtime.has_windows() ? runtime.windows().find(win) : nullptr;
  if (window != nullptr) {
    const mpi::Communicator* channel = runtime.comm(window->channel);
    const int local_rank = channel->local_rank(runtime.current_rank());
    if (WindowPart* part = runtime.windows().part(*window, local_rank)) {
      out = WindowAccess{window, part, local_rank, channel};
      return MPI_SUCCESS;
    }
  }
  return raise_error(MPI_COMM_WORLD, MPI_ERR_WIN, call, "invalid window " + std::to_string(win));
}

int raise_window_error(MPI_Win win, int error_class, const char* call, const std::string& what)
{
  Runtime& runtime = Runtime::get();
  Window* window = runtime.has_windows() ? runtime.windows().find(win) : nullptr;
  const mpi::Communicator* channel = window ? runtime.comm(window->channel) : nullptr;
  WindowPart* part = channel ? runtime.windows().part(*window, channel->local_rank(runtime.current_rank())) : nullptr;
  if (part == nullptr)
    return raise_error(MPI_COMM_WORLD, error_class, call, what);
  return raise_through_handler(part->errhandler, win, error_class, call, what);
}

} // namespace mpisim::online
