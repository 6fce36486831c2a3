#include "mpi/Rank.hpp"

#include "mpi/SendProtocol.hpp"

#include "kernel/Pool.hpp"

#include <algorithm>
#include <cstring>

namespace mpisim::mpi {

void Rank::check_peer(const Communicator& comm, int peer, int tag, bool receiving) const
{
  world_.check_operation(world_rank_, comm, false);
  const kernel::SimTime now = world_.engine().now();
  if (peer >= 0) {
    const int world_peer = comm.peer_world_rank(peer);
    if (world_.has_failed(world_peer) &&
        (not receiving || world_.mailbox(world_rank_).find_unexpected(comm.context(), peer, tag) == nullptr))
      throw ProcessFailure(FailureKind::ProcessFailed, world_peer, world_.failed_at(world_peer), world_rank_, now,
                           comm.name(), comm.context());
  } else if (receiving) {
    const int failed = world_.failed_member(comm, world_rank_);
    if (failed >= 0 && world_.mailbox(world_rank_).find_unexpected(comm.context(), kAnySource, tag) == nullptr)
      throw ProcessFailure(FailureKind::ProcessFailed, failed, world_.failed_at(failed), world_rank_, now, comm.name(),
                           comm.context());
  }
}

void Rank::throw_if_failed(const Request& request) const
{
  if (request.failure != FailureKind::None)
    throw world_.failure_of(request);
}

RequestPtr Rank::post_send(const Communicator& comm, int dst, int tag, double bytes, const void* data,
                           std::vector<std::byte> packed, bool blocking, SendMode mode)
{
  end_polling_streak();
  if (world_.detects_failures())
    check_peer(comm, dst, tag, false);
  const models::NetworkModel& network = world_.network();
  const int destination = comm.peer_world_rank(dst);
  const Mailbox& receiver = world_.mailbox(destination);
  receiver.prefetch();
  const models::ProtocolThresholds thresholds =
      network.thresholds_for(world_.host_of(world_rank_), world_.host_of(destination), bytes);
  const SendProtocol chosen = choose_send_protocol(mode, blocking, bytes, thresholds);
  const models::Protocol protocol = chosen.protocol;
  // A rendezvous holds the sender until the data has arrived, so the data can be read from its buffer then; a model
  // timed from the send releases the sender when its last byte left, before the arrival: the data is copied.
  const bool read_at_delivery = protocol == models::Protocol::Rendezvous && not thresholds.timed_from_send;
  if (chosen.overhead == PostOverhead::Isend)
    sleep(network.isend_overhead(bytes));
  else if (chosen.overhead == PostOverhead::Send)
    sleep(network.send_overhead(bytes));

  auto request = kernel::make_pooled<Request>(RequestKind::Send, world_rank_, comm, dst, tag, bytes);
  request->operation = posting_call();
  request->status.message = world_.next_message_id();
  if (log_)
    (tag < 0 ? log_->collective_sent : log_->sent).push_back(request->status.message);
  auto message = kernel::make_pooled<Message>(world_, request, world_rank_, destination, protocol, chosen.holds_sender,
                                              network.receive_overhead(bytes, protocol), world_.engine().now(),
                                              request->status.message);
  if (not packed.empty()) {
    message->copied = std::move(packed);
  } else if (data != nullptr && bytes > 0) {
    if (read_at_delivery) { // MPI forbids touching the buffer until the send completes: no copy needed
      message->source_buffer = data;
    } else {
      message->copied.resize(static_cast<size_t>(bytes));
      std::memcpy(message->copied.data(), data, message->copied.size());
    }
  }
  world_.track(message);
  if (chosen.starts_at_post)
    message->start_transfer(message);
  receiver.prefetch_posted_head(); // after the work above, which gave the mailbox time to arrive
  if (not chosen.holds_sender)
    request->complete();
  request->detached_send = protocol != models::Protocol::Rendezvous;
  message->enter_matching(message);
  kernel_calls(); // SimGrid's isend
  return request;
}

const char* Rank::posting_call() const
{
  // A helper actor's sends (a non-blocking collective's, a posted file access's) are no call's of the rank.
  return call_ != nullptr && world_.rank_actor_running(world_rank_) ? call_ : nullptr;
}

void Rank::spawn_helper(const std::string& what, std::function<void()> body)
{
  world().engine().spawn("rank " + std::to_string(world_rank_) + " " + what, std::move(body));
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
  end_polling_streak();
  if (world_.detects_failures())
    check_peer(comm, src, tag, true);
  Mailbox& mailbox = world_.mailbox(world_rank_);
  mailbox.prefetch_unexpected_head();
  auto request = kernel::make_pooled<Request>(RequestKind::Receive, world_rank_, comm, src, tag, bytes);
  request->posted_at = world_.engine().now();
  request->buffer = buffer;
  request->datatype = std::move(type); // before matching: an eager message already here is delivered at once
  mailbox.post_receive(request);
  kernel_calls(); // SimGrid's irecv
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
  if (dst == me && src == me && not comm.is_inter()) { // on an intercommunicator, rank `me` is a remote rank
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
  if (log_ != nullptr) // only while a collective algorithm's messages are logged
    note_received(request);
  double overhead = request.pending_overhead;
  request.pending_overhead = 0;
  sleep(overhead);
}

void Rank::kernel_calls(int calls)
{
  if (not in_rounds())
    return;
  for (int call = 0; call < calls; ++call)
    world_.engine().yield();
}

void Rank::await(Request& request)
{
  if (in_rounds() && not request.detached_send && not request.finished && request.done())
    kernel_calls(); // answered at once; a wait that blocks is resumed in its turn by the completion
  world_.engine().wait(request);
  request.finished = request.finished || in_rounds();
}

size_t Rank::await_any(std::span<const RequestPtr> requests)
{
  std::vector<kernel::Activity*> activities; // the unfinished requests
  std::vector<size_t> index_of;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (requests[i]->finished)
      continue;
    if (requests[i]->detached_send) { // SimGrid answers it before looking at the others
      requests[i]->finished = true;
      return i;
    }
    activities.push_back(requests[i].get());
    index_of.push_back(i);
  }
  if (activities.empty())
    return 0; // every one finished already (callers pass one at least): nothing to wait for
  if (std::any_of(activities.begin(), activities.end(), [](const kernel::Activity* a) { return a->done(); }))
    kernel_calls();
  const size_t index = index_of[world_.engine().wait_any(activities)];
  requests[index]->finished = true;
  return index;
}

Status Rank::wait(Request& request)
{
  end_polling_streak();
  await(request);
  throw_if_failed(request);
  pay_pending_overhead(request);
  return request.status;
}

void Rank::waitall(std::span<const RequestPtr> requests)
{
  end_polling_streak();
  if (world_.detects_failures()) { // the first failure ends the wait, whatever the requests before it wait for
    while (true) {
      std::vector<kernel::Activity*> pending;
      for (const RequestPtr& request : requests) {
        if (request && request->done())
          throw_if_failed(*request);
        else if (request)
          pending.push_back(request.get());
      }
      if (pending.empty())
        break;
      world_.engine().wait_any(pending);
    }
  }
  if (in_rounds()) { // SimGrid's waitall: a waitany per request, each finished as it is answered
    std::vector<RequestPtr> left;
    for (const RequestPtr& request : requests)
      if (request && not request->finished)
        left.push_back(request);
    while (not left.empty()) {
      const size_t index = await_any(left);
      throw_if_failed(*left[index]);
      pay_pending_overhead(*left[index]);
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(index));
    }
    return;
  }
  world_.engine().wait_all(requests, [](const RequestPtr& request) -> kernel::Activity* { return request.get(); });
  // The requests completed one by one while other ranks ran: what comes next reads each one's later lines (the
  // pending overhead here, then the caller's status checks and the destructor's shared pointers). Asked for all at
  // once, their misses overlap instead of coming one after the other.
  for (const RequestPtr& request : requests)
    if (request)
      request->prefetch();
  for (const RequestPtr& request : requests)
    if (request)
      pay_pending_overhead(*request);
}

size_t Rank::waitany(std::span<const RequestPtr> requests)
{
  end_polling_streak();
  size_t index = 0;
  if (in_rounds()) {
    index = await_any(requests);
  } else {
    std::vector<kernel::Activity*> activities;
    activities.reserve(requests.size());
    for (const RequestPtr& request : requests)
      activities.push_back(request.get());
    index = world_.engine().wait_any(activities);
  }
  throw_if_failed(*requests[index]);
  pay_pending_overhead(*requests[index]);
  return index;
}

// Polling ----------------------------------------------------------------------------------------------------------

namespace {

bool smpi_rule(const World& world)
{
  return world.settings().polling.rule == PollingRule::Smpi;
}

// The requests of a poll that are not complete yet: what could change its answer.
std::vector<kernel::ActivityPtr> pending_of(std::span<const RequestPtr> requests)
{
  std::vector<kernel::ActivityPtr> pending;
  for (const RequestPtr& request : requests)
    if (request && not request->done())
      pending.push_back(request);
  return pending;
}

// A generalized request completes when the program says so, maybe later in the same loop: never fast-forwarded.
bool all_simulated(std::span<const RequestPtr> requests)
{
  return std::none_of(requests.begin(), requests.end(),
                      [](const RequestPtr& r) { return r && r->kind() == RequestKind::Generalized; });
}

} // namespace

void Rank::end_polling_streak()
{
  streak_.clear();
  world_.note_polling_progress();
}

template <class Found>
bool Rank::poll(const std::vector<kernel::ActivityPtr>& pending, const ProbeFilter* filter, bool may_fast_forward,
                Found found)
{
  const double cost = world_.settings().polling.poll_cost;
  sleep(cost);
  const bool found_now = found();
  kernel_calls(); // the test or probe itself
  if (found_now) {
    end_polling_streak();
    return true;
  }
  if (may_fast_forward && streak_.may_fast_forward() && streak_.covers(pending, filter)) {
    // A repeat: nothing this loop of polls looks at has changed. Wait for the first change, then poll once more.
    if (not wait_for_polled_change())
      return false;
    sleep(cost);
    if (found()) {
      end_polling_streak();
      return true;
    }
    return false;
  }
  streak_.count_unsuccessful();
  streak_.add(pending, filter);
  return false;
}

bool Rank::wait_for_polled_change()
{
  Mailbox& mailbox = world_.mailbox(world_rank_);
  std::vector<kernel::Activity*> watched;
  for (const kernel::ActivityPtr& request : streak_.requests()) {
    if (request->done())
      return true; // changed already, while the loop looked elsewhere
    watched.push_back(request.get());
  }
  std::vector<RequestPtr> probes; // one blocked probe per filter: woken by the first matching message
  for (const ProbeFilter& filter : streak_.filters()) {
    if (mailbox.find_unexpected(filter.comm->context(), filter.source, filter.tag) != nullptr)
      return true;
    probes.push_back(
        kernel::make_pooled<Request>(RequestKind::Probe, world_rank_, *filter.comm, filter.source, filter.tag, 0));
    mailbox.add_probe(probes.back());
    watched.push_back(probes.back().get());
  }
  release_ = std::make_shared<PollRelease>();
  watched.push_back(release_.get());
  world_.engine().wait_any(watched);
  for (const RequestPtr& probe : probes)
    if (not probe->done())
      mailbox.remove_probe(*probe);
  const bool released = release_->done();
  release_.reset();
  if (released)
    streak_.released();
  return not released;
}

bool Rank::release_fast_forward()
{
  if (not release_ || release_->done())
    return false;
  release_->complete();
  return true;
}

bool Rank::smpi_test(Request& request)
{
  const PollingSettings& polling = world_.settings().polling;
  int& multiplier = world_.smpi_poll_counters().test;
  if (polling.test_delay > 0)
    sleep(multiplier * polling.test_delay);
  const bool done = request.done();
  if (not request.detached_send && not request.finished)
    kernel_calls(); // SimGrid's test; the counter changes after it
  if (not done) {
    if (polling.grow_injected_times)
      ++multiplier;
    return false;
  }
  multiplier = 1;
  request.finished = true;
  throw_if_failed(request);
  pay_pending_overhead(request);
  return true;
}

// SimGrid charges an iprobe as computation on the rank's host (a core's worth of flops for the delay).
void Rank::smpi_iprobe_delay()
{
  const PollingSettings& polling = world_.settings().polling;
  if (polling.iprobe_delay > 0)
    execute(world_.smpi_poll_counters().iprobe * polling.iprobe_delay * world_.cpu().speed(host()),
            3); // its amount, host and bound
}

bool Rank::test(Request& request)
{
  if (smpi_rule(world_))
    return smpi_test(request);
  const RequestPtr self = std::static_pointer_cast<Request>(request.shared_from_this());
  const bool done =
      poll(pending_of({&self, 1}), nullptr, request.kind() != RequestKind::Generalized, [&] { return request.done(); });
  if (done) {
    throw_if_failed(request);
    pay_pending_overhead(request);
  }
  return done;
}

void Rank::test_inactive()
{
  const PollingSettings& polling = world_.settings().polling;
  if (not smpi_rule(world_)) {
    sleep(polling.poll_cost);
    end_polling_streak();
  } else if (polling.test_delay > 0) {
    sleep(world_.smpi_poll_counters().test * polling.test_delay);
  }
}

std::optional<size_t> Rank::testany(std::span<const RequestPtr> requests)
{
  auto first_done = [&]() -> std::optional<size_t> {
    for (size_t i = 0; i < requests.size(); ++i)
      if (requests[i] && requests[i]->done())
        return i;
    return std::nullopt;
  };
  std::optional<size_t> index;
  if (smpi_rule(world_)) {
    const PollingSettings& polling = world_.settings().polling;
    int& multiplier = world_.smpi_poll_counters().testany;
    if (polling.test_delay > 0)
      sleep(multiplier * polling.test_delay);
    index = first_done();
    kernel_calls();                          // SimGrid's testany
    multiplier = index ? 1 : multiplier + 1; // SimGrid grows this one whatever smpi/grow-injected-times says
  } else {
    poll(pending_of(requests), nullptr, all_simulated(requests), [&] { return (index = first_done()).has_value(); });
  }
  if (index) {
    throw_if_failed(*requests[*index]);
    pay_pending_overhead(*requests[*index]);
  }
  return index;
}

bool Rank::testall(std::span<const RequestPtr> requests)
{
  if (smpi_rule(world_)) {
    // One test per request, but SimGrid frees a request the first time a test finds it complete: not tested again.
    bool all = true;
    for (const RequestPtr& request : requests)
      if (request && not request->finished)
        all = smpi_test(*request) && all;
    return all;
  }
  auto all_done = [&] {
    return std::all_of(requests.begin(), requests.end(), [](const RequestPtr& r) { return not r || r->done(); });
  };
  if (not poll(pending_of(requests), nullptr, all_simulated(requests), all_done))
    return false;
  for (const RequestPtr& request : requests)
    if (request)
      throw_if_failed(*request);
  for (const RequestPtr& request : requests)
    if (request)
      pay_pending_overhead(*request);
  return true;
}

bool Rank::testsome(std::span<const RequestPtr> requests)
{
  if (smpi_rule(world_)) {
    bool some = false;
    for (const RequestPtr& request : requests)
      if (request)
        some = smpi_test(*request) || some;
    return some;
  }
  auto some_done = [&] {
    return std::any_of(requests.begin(), requests.end(), [](const RequestPtr& r) { return r && r->done(); });
  };
  const bool some = poll(pending_of(requests), nullptr, all_simulated(requests), some_done);
  for (const RequestPtr& request : requests)
    if (request && request->done())
      throw_if_failed(*request);
  return some;
}

std::optional<Status> Rank::iprobe(const Communicator& comm, int src, int tag)
{
  if (world_.detects_failures())
    check_peer(comm, src, tag, true);
  Mailbox& mailbox = world_.mailbox(world_rank_);
  const Message* message = nullptr;
  auto look = [&] { return (message = mailbox.find_unexpected(comm.context(), src, tag)) != nullptr; };
  if (smpi_rule(world_)) {
    smpi_iprobe_delay();
    int& multiplier = world_.smpi_poll_counters().iprobe;
    const bool found = look();
    kernel_calls(); // SimGrid's iprobe of the mailbox
    if (found)
      multiplier = 1;
    else if (world_.settings().polling.grow_injected_times)
      ++multiplier;
  } else {
    const ProbeFilter filter{&comm, src, tag};
    poll({}, &filter, true, look);
  }
  if (message == nullptr)
    return std::nullopt;
  return Status{message->source(), message->tag(), message->bytes(), false};
}

Status Rank::probe(const Communicator& comm, int src, int tag)
{
  if (smpi_rule(world_)) { // SimGrid's MPI_Probe: MPI_Iprobe until it finds the message
    std::optional<Status> found;
    while (not(found = iprobe(comm, src, tag)))
      ;
    return *found;
  }
  return wait_for_message(comm, src, tag);
}

Status Rank::wait_for_message(const Communicator& comm, int src, int tag)
{
  end_polling_streak();
  Mailbox& mailbox = world_.mailbox(world_rank_);
  if (const Message* message = mailbox.find_unexpected(comm.context(), src, tag))
    return Status{message->source(), message->tag(), message->bytes(), false};
  if (world_.detects_failures())
    check_peer(comm, src, tag, true);
  auto probe = kernel::make_pooled<Request>(RequestKind::Probe, world_rank_, comm, src, tag, 0);
  mailbox.add_probe(probe);
  world_.engine().wait(*probe);
  throw_if_failed(*probe);
  return probe->status;
}

MessagePtr Rank::claim_message(const Communicator& comm, int src, int tag)
{
  return world_.mailbox(world_rank_).claim_unexpected(comm.context(), src, tag);
}

MessagePtr Rank::improbe(const Communicator& comm, int src, int tag)
{
  MessagePtr message;
  auto claim = [&] { return (message = claim_message(comm, src, tag)) != nullptr; };
  if (smpi_rule(world_)) { // not in SimGrid 3.32: charged as its MPI_Iprobe, with the same counter
    smpi_iprobe_delay();
    int& multiplier = world_.smpi_poll_counters().iprobe;
    const bool found = claim();
    kernel_calls(); // as its MPI_Iprobe's look at the mailbox
    if (found)
      multiplier = 1;
    else if (world_.settings().polling.grow_injected_times)
      ++multiplier;
  } else {
    const ProbeFilter filter{&comm, src, tag};
    poll({}, &filter, true, claim);
  }
  return message;
}

MessagePtr Rank::mprobe(const Communicator& comm, int src, int tag)
{
  if (smpi_rule(world_)) { // as SimGrid builds MPI_Probe on MPI_Iprobe
    MessagePtr message;
    while (not(message = improbe(comm, src, tag)))
      ;
    return message;
  }
  end_polling_streak();
  if (MessagePtr message = claim_message(comm, src, tag))
    return message;
  auto probe = kernel::make_pooled<Request>(RequestKind::Probe, world_rank_, comm, src, tag, 0);
  probe->claims_message = true;
  world_.mailbox(world_rank_).add_probe(probe);
  world_.engine().wait(*probe);
  return std::move(probe->claimed);
}

RequestPtr Rank::mrecv(const MessagePtr& message, void* buffer, size_t count, const DatatypePtr& type)
{
  const Request& send = message->send_request();
  auto request = kernel::make_pooled<Request>(RequestKind::Receive, world_rank_, send.comm(), message->source(),
                                              message->tag(), static_cast<double>(type->packed_size(count)));
  request->posted_at = world_.engine().now();
  request->buffer = buffer;
  request->datatype = type;
  message->match(request, message);
  return request;
}

bool Rank::cancel(Request& request)
{
  end_polling_streak();
  if (request.buffered_copy) {
    const bool taken = cancel(*request.buffered_copy) && request.buffered_copy->status.cancelled;
    request.status.cancelled = request.status.cancelled || taken;
    return taken;
  }
  if (request.kind() == RequestKind::Send)
    return world_.mailbox(request.comm().peer_world_rank(request.peer())).cancel_send(request);
  if (request.kind() != RequestKind::Receive || request.done() ||
      not world_.mailbox(world_rank_).cancel_receive(request))
    return false;
  request.status.cancelled = true;
  request.complete();
  return true;
}

void Rank::compute(double flops)
{
  execute(flops, 2); // SimGrid sets an execution's amount and host, one kernel call each
}

void Rank::execute(double flops, int setup_calls)
{
  end_polling_streak();
  if (flops <= 0)
    return;
  kernel_calls(setup_calls);
  auto execution = world_.cpu().execute(host(), flops);
  kernel_calls(); // its start
  world_.engine().wait(*execution);
}

} // namespace mpisim::mpi
