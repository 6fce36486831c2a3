#include "mpi/OverflowList.hpp"

namespace mpisim::mpi {

OverflowList::OverflowList(const models::OverflowSettings& settings)
    : settings_(settings), buffers_(static_cast<size_t>(settings.buffers))
{
  for (int b = 0; b < settings.buffers; ++b)
    order_.push_back(b);
}

int OverflowList::land(double room)
{
  if (order_.empty())
    return -1;
  const int index = order_.front();
  Buffer& buffer = buffers_[static_cast<size_t>(index)];
  buffer.used += room;
  ++buffer.messages;
  if (settings_.buffer_size - buffer.used < settings_.min_free) { // PTL_EVENT_AUTO_UNLINK
    buffer.linked = false;
    order_.pop_front();
  }
  return index;
}

void OverflowList::consume(int index)
{
  Buffer& buffer = buffers_[static_cast<size_t>(index)];
  --buffer.messages;
  if (not buffer.linked && buffer.messages == 0) { // PTL_EVENT_AUTO_FREE: MPI appends it again, empty
    buffer = Buffer{};
    order_.push_back(index);
  }
}

} // namespace mpisim::mpi
