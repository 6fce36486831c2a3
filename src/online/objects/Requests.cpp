#include "online/objects/Requests.hpp"

namespace mpisim::online {

mpi::MessagePtr Requests::take_message(int handle)
{
  std::optional<mpi::MessagePtr> message = messages_.take(handle);
  return message ? std::move(*message) : nullptr;
}

} // namespace mpisim::online
