#include "online/objects/Windows.hpp"

namespace mpisim::online {

Window& Windows::join(int channel, int members)
{
  auto known = handle_of_channel_.find(channel);
  if (known != handle_of_channel_.end())
    return *windows_.find(known->second);
  const int handle = windows_.insert(Window{});
  Window& window = *windows_.find(handle);
  window.handle = handle;
  window.channel = channel;
  window.parts.resize(static_cast<size_t>(members));
  handle_of_channel_[channel] = handle;
  return window;
}

Window* Windows::find(int handle)
{
  return windows_.find(handle);
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

} // namespace mpisim::online
