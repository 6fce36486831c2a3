#include "mpi/SendProtocol.hpp"

namespace mpisim::mpi {

namespace {

models::Protocol protocol_by_size(double payload, const models::ProtocolThresholds& thresholds)
{
  if (payload < thresholds.eager_below)
    return models::Protocol::Eager;
  if (payload < thresholds.detached_below)
    return models::Protocol::Detached;
  return models::Protocol::Rendezvous;
}

} // namespace

SendProtocol choose_send_protocol(SendMode mode, bool blocking, double payload,
                                  const models::ProtocolThresholds& thresholds)
{
  const models::Protocol by_size = protocol_by_size(payload, thresholds);
  models::Protocol protocol = by_size;
  if (mode == SendMode::Synchronous)
    protocol = models::Protocol::Rendezvous;
  else if (mode == SendMode::Buffered && by_size == models::Protocol::Rendezvous)
    protocol = models::Protocol::Detached;

  PostOverhead overhead = PostOverhead::Isend;
  if (blocking)
    overhead =
        by_size != models::Protocol::Rendezvous || mode == SendMode::Buffered ? PostOverhead::Send : PostOverhead::None;
  if (thresholds.timed_from_send)
    return SendProtocol{protocol, overhead, true, mode != SendMode::Synchronous || thresholds.synchronous_at_post};
  const bool holds_sender = protocol == models::Protocol::Rendezvous || mode == SendMode::Buffered;
  return SendProtocol{protocol, overhead, holds_sender, protocol == models::Protocol::Eager};
}

} // namespace mpisim::mpi
