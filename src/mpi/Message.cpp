#include "mpi/Message.hpp"

#include "mpi/World.hpp"

#include "common/Errors.hpp"
#include "kernel/MemoryContexts.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

namespace mpisim::mpi {

namespace {
// A message that ends inside an element of a derived datatype: its last bytes fill the first blocks of that element
// (MPI delivers the basic elements received, which MPI_Get_elements counts).
void unpack_partial(const Datatype& type, const std::byte* in, size_t bytes, std::byte* element)
{
  for (const Datatype::Block& block : type.blocks()) {
    if (bytes == 0)
      return;
    const size_t taken = std::min(bytes, block.length);
    std::memcpy(element + block.offset, in, taken);
    in += taken;
    bytes -= taken;
  }
}
} // namespace

void Message::start_transfer(const MessagePtr& self)
{
  keep_in_flight(self);
  started_ = true;
  started_at_ = world_.engine().now();
  transfer_ = world_.network().transfer({world_.host_of(source_world_), world_.host_of(destination_world_),
                                         source_world_, destination_world_, bytes(), posted_at_, protocol_});
  if (transfer_.sender_release) {
    if (transfer_.sender_release->done())
      release_sender();
    else
      transfer_.sender_release->set_observer(this);
  }
  if (const auto& at_receiver = transfer_.at_receiver) {
    arrival_reaches_receiver_ = at_receiver == transfer_.arrival;
    if (at_receiver->done())
      reached_receiver_ = true;
    else if (not arrival_reaches_receiver_)
      at_receiver->set_observer(this);
  }
  if (transfer_.arrival)
    watch_arrival();
  else if (receive_) // dated at the match, which has happened
    date_arrival_at_match(self);
}

void Message::enter_matching(const MessagePtr& self)
{
  Mailbox& mailbox = world_.mailbox(destination_world_);
  if (not transfer_.at_receiver || reached_receiver_) {
    mailbox.post_send(self);
    land_if_unexpected();
    return;
  }
  on_the_way_ = true;
  mailbox.post_on_the_way(self);
}

void Message::reach_receiver()
{
  reached_receiver_ = true;
  if (not on_the_way_)
    return; // before enter_matching: it posts the message itself
  on_the_way_ = false;
  world_.mailbox(destination_world_).reached(shared_from_this());
  land_if_unexpected();
}

void Message::land_if_unexpected()
{
  if (not transfer_.at_receiver || receive_ || dropped_ || cancelled_ || overflow_buffer_ >= 0)
    return;
  OverflowList* overflow = world_.overflow_list(destination_world_);
  if (overflow == nullptr)
    return;
  // An eager message's data is in the buffer; a rendezvous header's stays at the sender.
  overflow_buffer_ = overflow->land(protocol_ == models::Protocol::Eager ? bytes() : 0);
  if (overflow_buffer_ < 0)
    throw OverflowExhausted(overflow_report(*overflow));
}

std::string Message::overflow_report(const OverflowList& overflow) const
{
  // The call that posted the send (online: PMPI_Send -> MPI_Send), else what the message is.
  const char* call = send_->operation;
  const std::string sent_by = call == nullptr ? "message" : std::string(call).substr(call[0] == 'P' ? 1 : 0);
  const models::OverflowSettings& list = overflow.settings();
  char date[64];
  std::snprintf(date, sizeof date, "%.9f", world_.engine().now());
  const std::string receiver = "rank " + std::to_string(destination_world_);
  return receiver + ": overflow list exhausted (" + std::to_string(list.buffers) +
         (list.buffers == 1 ? " buffer" : " buffers") + " of " +
         std::to_string(static_cast<long long>(list.buffer_size)) +
         " B, all full of unexpected messages no receive has taken) at rank " + std::to_string(source_world_) + "'s " +
         sent_by + " (tag " + std::to_string(tag()) + ", " + std::to_string(static_cast<long long>(bytes())) +
         " B, on " + send_->comm().name() + "), simulated time " + date + " s\n  " + receiver +
         "'s portal table entry would be disabled (PTL_NI_PT_DISABLED), and mpisim does not model MPI's recovery: "
         "raise --param overflow-buffers or --param overflow-buffer-size (docs/bxi.md)";
}

void Message::copy_out_of_overflow_buffer()
{
  in_flight_ = shared_from_this();
  const double copy = world_.overflow_list(destination_world_)->copy_time(bytes());
  copy_out_ = world_.engine().start_timer(copy, "the copy of a message out of an overflow buffer");
  copy_out_->set_observer(this);
}

void Message::leave_overflow_buffer()
{
  if (overflow_buffer_ < 0)
    return;
  world_.overflow_list(destination_world_)->consume(overflow_buffer_);
  overflow_buffer_ = -1;
}

void Message::watch_arrival()
{
  if (transfer_.arrival->done())
    arrive();
  else
    transfer_.arrival->set_observer(this);
}

// Models timed from the send (xsim) date the arrival once the receive is known: its post date and the receiver's
// previous message decide when the bytes come in.
void Message::date_arrival_at_match(const MessagePtr& self)
{
  keep_in_flight(self);
  transfer_.arrival = world_.network().arrival_at_match(*transfer_.window, receive_->posted_at);
  watch_arrival();
}

void Message::match(RequestPtr receive, const MessagePtr& self)
{
  if (dropped_)
    return;
  receive_ = std::move(receive);
  receive_->status = Status{source(), tag(), bytes(), false, id_};
  if (overflow_buffer_ >= 0 && protocol_ == models::Protocol::Eager && arrived_) {
    copy_out_of_overflow_buffer();
    return;
  }
  leave_overflow_buffer(); // a rendezvous header: its data comes by the Get
  if (not started_)
    start_transfer(self);
  else if (transfer_.window && not arrived_)
    date_arrival_at_match(self);
  else if (arrived_)
    deliver();
}

void Message::cancel()
{
  cancelled_ = true;
  leave_overflow_buffer();
  send_->status.cancelled = true;
  if (not send_->done())
    release_sender();
}

void Message::activity_done(kernel::Activity& activity)
{
  if (&activity == transfer_.sender_release.get()) {
    if (dropped_) // its sender failed
      return;
    // Held through the release: by the in-flight reference, moved here and back (a new reference would be an atomic
    // instruction, which waits for the stores before it), else by a new one.
    const bool held = in_flight_ != nullptr;
    MessagePtr self = held ? std::move(in_flight_) : shared_from_this();
    if (not sender_released_)
      release_sender();
    if (not transfer_.arrival) // arrival dated at the match: until then the mailbox holds the message
      in_flight_.reset();
    else if (held && not in_flight_)
      in_flight_ = std::move(self);
    return;
  }
  if (&activity == copy_out_.get()) {
    auto self = std::move(in_flight_);
    copy_out_.reset();
    leave_overflow_buffer(); // its room is free once the data is out
    if (not dropped_)
      deliver();
    return;
  }
  if (&activity == transfer_.at_receiver.get() && not arrival_reaches_receiver_) {
    auto self = shared_from_this();
    reach_receiver();
    return;
  }
  arrive();
}

void Message::release_sender()
{
  sender_released_ = true;
  // Once released the sender may write its buffer again: a payload that has not arrived yet is taken from it now
  // (a model that frees the sender before the arrival, as loggps's rendezvous does after the handshake).
  if (not arrived_ && source_buffer != nullptr && copied.empty() && bytes() > 0)
    take_payload_from_sender();
  if (not send_->done())
    send_->complete();
}

void Message::arrive()
{
  // Both requests went cold while the transfer ran, and both are read below (the receive's delivery, the held sender's
  // release): asked for together, their misses overlap.
  if (receive_)
    receive_->prefetch();
  if (holds_sender_ && not sender_released_)
    send_->prefetch();
  arrived_ = true;
  auto self = std::move(in_flight_); // the message may be released when this function returns
  transfer_.arrival.reset();
  if (dropped_)
    return;
  if (world_.observed() && not cancelled_)
    world_.report(MessageRecord{source_world_, destination_world_, tag(), context(), bytes(), posted_at_, started_at_,
                                world_.engine().now(), protocol_, id_});
  if (holds_sender_ && not sender_released_) {
    if (transfer_.sender_release && not transfer_.sender_release->done())
      in_flight_ = self; // the model releases the sender after the arrival (bxi: SEND comes with the ACK)
    else
      release_sender();
  }
  if (receive_)
    deliver();
  else if (arrival_reaches_receiver_ && not reached_receiver_)
    reach_receiver(); // the receive that matches it now finds it arrived
}

void Message::take_payload_from_sender()
{
  std::vector<std::byte> staged;
  const auto* from = static_cast<const std::byte*>(staged_from_sender(staged));
  if (from == staged.data())
    copied = std::move(staged);
  else
    copied.assign(from, from + static_cast<size_t>(bytes()));
}

const void* Message::staged_from_sender(std::vector<std::byte>& staged) const
{
  const kernel::MemoryContexts* contexts = world_.engine().memory_contexts();
  if (contexts == nullptr || not contexts->is_private(source_buffer))
    return source_buffer;
  kernel::MemoryContextScope sender_memory(world_.engine(), source_world_);
  const auto* from = static_cast<const std::byte*>(source_buffer);
  staged.assign(from, from + static_cast<size_t>(bytes()));
  return staged.data();
}

bool Message::receives_into_private_memory(const Request& receive) const
{
  const kernel::MemoryContexts* contexts = world_.engine().memory_contexts();
  if (contexts == nullptr)
    return false;
  const Datatype* type = receive.datatype.get();
  return receive.observed() || (type != nullptr && not type->is_contiguous()) || contexts->is_private(receive.buffer);
}

void Message::deliver()
{
  Request& receive = *receive_;
  const double capacity = receive.bytes();
  receive.status.truncated = bytes() > capacity;
  const void* data = copied.empty() ? source_buffer : copied.data();
  // Ranks whose globals share addresses (swap privatization, kernel/MemoryContexts.hpp): a sender's global is read
  // with the sender's memory in place, the receiver's buffer written with the receiver's. Memory contexts are world
  // ranks.
  std::vector<std::byte> staged;
  if (data == source_buffer && data != nullptr && source_world_ != destination_world_)
    data = staged_from_sender(staged);
  // The receiver's memory is put in place only where the delivery can reach it: a buffer among its globals, a
  // datatype whose blocks may lie anywhere (absolute addresses from MPI_BOTTOM), or an observer run at completion
  // (one-sided operations act on windows). A heap or stack buffer is at its own address whatever the context, and
  // each switch copies a rank's globals twice (out, then back when the next rank runs).
  std::optional<kernel::MemoryContextScope> receiver_memory;
  if (receives_into_private_memory(receive))
    receiver_memory.emplace(world_.engine(), destination_world_);
  if (receive.buffer != nullptr && data != nullptr) {
    const auto received = static_cast<size_t>(std::min(bytes(), capacity));
    const Datatype* type = receive.datatype.get();
    if (type != nullptr && not type->is_contiguous() && type->size() > 0) {
      const size_t whole = received / type->size();
      const auto* in = static_cast<const std::byte*>(data);
      type->unpack(in, whole, receive.buffer);
      unpack_partial(*type, in + whole * type->size(), received % type->size(),
                     static_cast<std::byte*>(receive.buffer) + static_cast<std::ptrdiff_t>(whole) * type->extent());
    } else if (type == nullptr || type->size() > 0) {
      std::memcpy(receive.buffer, data, received);
    }
  }
  receive.pending_overhead = receive_overhead_;
  receive_->complete();
}

} // namespace mpisim::mpi
