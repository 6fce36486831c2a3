#include "mpi/Request.hpp"

namespace mpisim::mpi {

namespace {
std::string rank_text(int rank)
{
  return rank == kAnySource ? "any rank" : "rank " + std::to_string(rank);
}
std::string tag_text(int tag)
{
  return tag == kAnyTag ? "any tag" : "tag " + std::to_string(tag);
}
} // namespace

std::string Request::describe() const
{
  switch (kind_) {
  case RequestKind::Send:
    return "send to " + rank_text(peer_) + ", " + tag_text(tag_) + ", " +
           std::to_string(static_cast<long long>(bytes_)) + " bytes, on " + comm_->name() + " (no matching receive)";
  case RequestKind::Receive:
    return "receive from " + rank_text(peer_) + ", " + tag_text(tag_) + ", on " + comm_->name() + " (no matching send)";
  case RequestKind::Probe:
    return "probe for a message from " + rank_text(peer_) + ", " + tag_text(tag_) + ", on " + comm_->name();
  case RequestKind::Collective:
    return std::string("non-blocking ") + (operation ? operation : "collective") + " on " + comm_->name() +
           " (not complete)";
  case RequestKind::Generalized: return "generalized request (MPI_Grequest_complete not called yet)";
  }
  return "request";
}

} // namespace mpisim::mpi
