#include "mpi/Rank.hpp"

#include "mpi/SendProtocol.hpp"

#include <algorithm>
#include <cstring>

namespace mpisim::mpi {

RequestPtr Rank::post_send(const Communicator& comm, int dst, int tag, double bytes, const void* data,
                           std::vector<std::byte> packed, bool blocking, SendMode mode)
{
  const models::NetworkModel& network = world_.network();
  const SendProtocol chosen = choose_send_protocol(mode, blocking, bytes, network.protocol_thresholds());
  const models::Protocol protocol = chosen.protocol;
  const bool rendezvous = protocol == models::Protocol::Rendezvous;
  if (chosen.overhead == PostOverhead::Isend)
    sleep(network.isend_overhead(bytes));
  else if (chosen.overhead == PostOverhead::Send)
    sleep(network.send_overhead(bytes));

  auto request = std::make_shared<Request>(RequestKind::Send, world_rank_, comm, dst, tag, bytes);
  request->status.message = world_.next_message_id();
  if (log_)
    (tag < 0 ? log_->collective_sent : log_->sent).push_back(request->status.message);
  const int destination = comm.world_rank(dst);
  auto message = std::make_shared<Message>(world_, request, world_rank_, destination, protocol, chosen.holds_sender,
                                           network.receive_overhead(bytes, protocol), world_.engine().now(),
                                           request->status.message);
  if (not packed.empty()) {
    message->copied = std::move(packed);
  } else if (data != nullptr && bytes > 0) {
    if (rendezvous) { // MPI forbids touching the buffer until the send completes: no copy needed
      message->source_buffer = data;
    } else {
      message->copied.resize(static_cast<size_t>(bytes));
      std::memcpy(message->copied.data(), data, message->copied.size());
    }
  }
  if (protocol == models::Protocol::Eager)
    message->start_transfer();
  if (not chosen.holds_sender)
    request->complete();
  world_.mailbox(destination).post_send(message);
  return request;
}

RequestPtr Rank::isend(const Communicator& comm, int dst, int tag, double bytes, const void* data)
{
  return post_send(comm, dst, tag, bytes, data, {}, false);
}

RequestPtr Rank::isend(const Communicator& comm, int dst, int tag, const void* buffer, size_t count,
                       const DatatypePtr& type, SendMode mode)
{
  const double bytes = static_cast<double>(type->packed_size(count));
  if (type->is_contiguous() || buffer == nullptr)
    return post_send(comm, dst, tag, bytes, buffer, {}, false, mode);
  std::vector<std::byte> packed(type->packed_size(count));
  type->pack(buffer, count, packed.data());
  return post_send(comm, dst, tag, bytes, nullptr, std::move(packed), false, mode);
}

RequestPtr Rank::irecv(const Communicator& comm, int src, int tag, void* buffer, size_t count, const DatatypePtr& type)
{
  return post_receive(comm, src, tag, static_cast<double>(type->packed_size(count)), buffer, type);
}

uint64_t Rank::send(const Communicator& comm, int dst, int tag, double bytes, const void* data, SendMode mode)
{
  RequestPtr request = post_send(comm, dst, tag, bytes, data, {}, true, mode);
  wait(*request);
  return request->status.message;
}

RequestPtr Rank::bsend(const Communicator& comm, int dst, int tag, double bytes, const void* data)
{
  return post_send(comm, dst, tag, bytes, data, {}, true, SendMode::Buffered);
}

RequestPtr Rank::irecv(const Communicator& comm, int src, int tag, double bytes, void* buffer)
{
  return post_receive(comm, src, tag, bytes, buffer, nullptr);
}

RequestPtr Rank::post_receive(const Communicator& comm, int src, int tag, double bytes, void* buffer, DatatypePtr type)
{
  auto request = std::make_shared<Request>(RequestKind::Receive, world_rank_, comm, src, tag, bytes);
  request->buffer = buffer;
  request->datatype = std::move(type); // before matching: an eager message already here is delivered at once
  world_.mailbox(world_rank_).post_receive(request);
  return request;
}

Status Rank::recv(const Communicator& comm, int src, int tag, double bytes, void* buffer)
{
  RequestPtr request = irecv(comm, src, tag, bytes, buffer);
  return wait(*request);
}

Status Rank::sendrecv(const Communicator& comm, int dst, int send_tag, double send_bytes, int src, int recv_tag,
                      double recv_bytes, const void* send_data, void* recv_buffer)
{
  const int me = comm.local_rank(world_rank_);
  if (dst == me && src == me) {
    if (send_data && recv_buffer && send_data != recv_buffer)
      std::memmove(recv_buffer, send_data, static_cast<size_t>(std::min(send_bytes, recv_bytes)));
    return Status{me, recv_tag, send_bytes, send_bytes > recv_bytes};
  }
  RequestPtr requests[2] = {isend(comm, dst, send_tag, send_bytes, send_data),
                            irecv(comm, src, recv_tag, recv_bytes, recv_buffer)};
  waitall(requests);
  return requests[1]->status;
}

// A receive completed in this rank's call (waited for or tested): noted once, however often it is waited for.
void Rank::note_received(const Request& request)
{
  if (log_ == nullptr || request.kind() != RequestKind::Receive || request.status.message == 0)
    return;
  std::vector<uint64_t>& ids = request.status.tag < 0 ? log_->collective_received : log_->received;
  if (std::find(ids.begin(), ids.end(), request.status.message) == ids.end())
    ids.push_back(request.status.message);
}

void Rank::pay_pending_overhead(Request& request)
{
  note_received(request);
  double overhead = request.pending_overhead;
  request.pending_overhead = 0;
  sleep(overhead);
}

Status Rank::wait(Request& request)
{
  world_.engine().wait(request);
  pay_pending_overhead(request);
  return request.status;
}

void Rank::waitall(std::span<const RequestPtr> requests)
{
  for (const RequestPtr& request : requests)
    if (request)
      world_.engine().wait(*request);
  for (const RequestPtr& request : requests)
    if (request)
      pay_pending_overhead(*request);
}

size_t Rank::waitany(std::span<const RequestPtr> requests)
{
  std::vector<kernel::Activity*> activities;
  activities.reserve(requests.size());
  for (const RequestPtr& request : requests)
    activities.push_back(request.get());
  size_t index = world_.engine().wait_any(activities);
  pay_pending_overhead(*requests[index]);
  return index;
}

void Rank::sleep_test_delay()
{
  // As SMPI: each test costs time, more after consecutive failures, so polling loops let the clock advance.
  sleep((world_.settings().grow_test_delay ? failed_tests_ + 1 : 1) * world_.settings().test_delay);
}

bool Rank::test(Request& request)
{
  sleep_test_delay();
  if (not request.done()) {
    ++failed_tests_;
    return false;
  }
  failed_tests_ = 0;
  pay_pending_overhead(request);
  return true;
}

std::optional<size_t> Rank::testany(std::span<const RequestPtr> requests)
{
  sleep_test_delay();
  for (size_t i = 0; i < requests.size(); ++i) {
    if (requests[i] && requests[i]->done()) {
      failed_tests_ = 0;
      pay_pending_overhead(*requests[i]);
      return i;
    }
  }
  ++failed_tests_;
  return std::nullopt;
}

Status Rank::probe(const Communicator& comm, int src, int tag)
{
  Mailbox& mailbox = world_.mailbox(world_rank_);
  if (const Message* message = mailbox.find_unexpected(comm.context(), src, tag))
    return Status{message->source(), message->tag(), message->bytes(), false};
  auto probe = std::make_shared<Request>(RequestKind::Probe, world_rank_, comm, src, tag, 0);
  mailbox.add_probe(probe);
  world_.engine().wait(*probe);
  return probe->status;
}

MessagePtr Rank::improbe(const Communicator& comm, int src, int tag)
{
  return world_.mailbox(world_rank_).claim_unexpected(comm.context(), src, tag);
}

MessagePtr Rank::mprobe(const Communicator& comm, int src, int tag)
{
  if (MessagePtr message = improbe(comm, src, tag))
    return message;
  auto probe = std::make_shared<Request>(RequestKind::Probe, world_rank_, comm, src, tag, 0);
  probe->claims_message = true;
  world_.mailbox(world_rank_).add_probe(probe);
  world_.engine().wait(*probe);
  return std::move(probe->claimed);
}

RequestPtr Rank::mrecv(const MessagePtr& message, void* buffer, size_t count, const DatatypePtr& type)
{
  const Request& send = message->send_request();
  auto request = std::make_shared<Request>(RequestKind::Receive, world_rank_, send.comm(), message->source(),
                                           message->tag(), static_cast<double>(type->packed_size(count)));
  request->buffer = buffer;
  request->datatype = type;
  message->match(request);
  return request;
}

bool Rank::cancel(Request& request)
{
  if (request.buffered_copy) {
    const bool taken = cancel(*request.buffered_copy) && request.buffered_copy->status.cancelled;
    request.status.cancelled = request.status.cancelled || taken;
    return taken;
  }
  if (request.kind() == RequestKind::Send)
    return world_.mailbox(request.comm().world_rank(request.peer())).cancel_send(request);
  if (request.kind() != RequestKind::Receive || request.done() ||
      not world_.mailbox(world_rank_).cancel_receive(request))
    return false;
  request.status.cancelled = true;
  request.complete();
  return true;
}

void Rank::compute(double flops)
{
  if (flops <= 0)
    return;
  auto execution = world_.cpu().execute(host(), flops);
  world_.engine().wait(*execution);
}

void Rank::sleep(double seconds)
{
  world_.engine().sleep(seconds);
}

} // namespace mpisim::mpi
