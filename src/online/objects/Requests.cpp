#include "online/objects/Requests.hpp"

namespace mpisim::online {

mpi::MessagePtr Requests::take_message(int handle)
{
  std::optional<mpi::MessagePtr> message = messages_.take(handle);
  return message ? std::move(*message) : nullptr;
}

std::map<int, std::vector<int>> Requests::pending_by_rank(const std::function<bool(int world_rank)>& wanted) const
{
  std::map<int, std::vector<int>> pending;
  const std::vector<int> handles = requests_.handles_where([&wanted](const RequestEntry& entry) {
    return entry.active && entry.request != nullptr && wanted(entry.request->owner());
  });
  for (int handle : handles) // in handle order, so each rank's list is too
    pending[requests_.find(handle)->request->owner()].push_back(handle);
  return pending;
}

std::vector<mpi::RequestPtr> Requests::unfinished_on(int world_rank, int comm) const
{
  std::vector<mpi::RequestPtr> unfinished;
  for (int handle : requests_.handles_where([world_rank, comm](const RequestEntry& entry) {
         return entry.active && entry.request != nullptr && !entry.request->done() &&
                entry.request->owner() == world_rank && entry.owner.kind == ErrorOwner::Kind::Communicator &&
                entry.owner.handle == comm && entry.request->kind() != mpi::RequestKind::Generalized;
       }))
    unfinished.push_back(requests_.find(handle)->request);
  return unfinished;
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
