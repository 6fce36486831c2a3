#include "online/objects/Requests.hpp"

namespace mpisim::online {

mpi::MessagePtr Requests::take_message(int handle)
{
  std::optional<mpi::MessagePtr> message = messages_.take(handle);
  return message ? std::move(*message) : nullptr;
}

std::vector<int> Requests::pending_of(int world_rank) const
{
  return requests_.handles_where([world_rank](const RequestEntry& entry) {
    return entry.active && entry.request != nullptr && entry.request->owner() == world_rank;
  });
}

std::string Requests::describe_pending(const RequestEntry& entry)
{
  const mpi::Request& request = *entry.request;
  const auto rank_text = [](int rank) {
    return rank == mpi::kAnySource ? std::string("any rank") : "rank " + std::to_string(rank);
  };
  const auto tag_text = [](int tag) {
    return tag == mpi::kAnyTag ? std::string("any tag") : "tag " + std::to_string(tag);
  };
  const std::string where = ", on " + request.comm().name();
  std::string what;
  switch (request.kind()) {
  case mpi::RequestKind::Send:
    what = "send to " + rank_text(request.peer()) + ", " + tag_text(request.tag()) + where;
    break;
  case mpi::RequestKind::Receive:
    what = "receive from " + rank_text(request.peer()) + ", " + tag_text(request.tag()) + where;
    break;
  case mpi::RequestKind::Probe:
    what = "probe from " + rank_text(request.peer()) + ", " + tag_text(request.tag()) + where;
    break;
  case mpi::RequestKind::Collective:
    what = std::string("non-blocking ") + (request.operation ? request.operation : "collective") + where;
    break;
  case mpi::RequestKind::Generalized: what = "generalized request"; break;
  }
  if (request.done())
    return what + " (complete, never waited for or freed)";
  if (request.kind() == mpi::RequestKind::Receive && request.status.message == 0)
    return what + " (no matching send)";
  return what + " (not complete)";
}

} // namespace mpisim::online
