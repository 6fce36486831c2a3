#include "mpi/Message.hpp"

#include "mpi/World.hpp"

#include <algorithm>
#include <cstring>

namespace mpisim::mpi {

void Message::start_transfer()
{
  in_flight_ = shared_from_this();
  started_at_ = world_.engine().now();
  transfer_ = world_.network().transfer(world_.host_of(source_world_), world_.host_of(destination_world_), bytes(),
                                        posted_at_);
  if (protocol_ == models::Protocol::Rendezvous && transfer_.sender_release) {
    if (transfer_.sender_release->done())
      release_sender();
    else
      transfer_.sender_release->set_observer(this);
  }
  if (transfer_.arrival->done())
    arrive();
  else
    transfer_.arrival->set_observer(this);
}

void Message::match(RequestPtr receive)
{
  receive_ = std::move(receive);
  receive_->status = Status{source(), tag(), bytes(), false, id_};
  if (protocol_ != models::Protocol::Eager)
    start_transfer();
  else if (arrived_)
    deliver();
}

void Message::cancel()
{
  cancelled_ = true;
  send_->status.cancelled = true;
  if (not send_->done())
    release_sender();
}

void Message::activity_done(kernel::Activity& activity)
{
  if (&activity == transfer_.sender_release.get())
    release_sender();
  else
    arrive();
}

void Message::release_sender()
{
  sender_released_ = true;
  if (not send_->done())
    send_->complete();
}

void Message::arrive()
{
  arrived_ = true;
  auto self = std::move(in_flight_); // the message may be released when this function returns
  transfer_.arrival.reset();
  if (world_.observed() && not cancelled_)
    world_.report(MessageRecord{source_world_, destination_world_, tag(), context(), bytes(), posted_at_, started_at_,
                                world_.engine().now(), protocol_, id_});
  if (holds_sender_ && not sender_released_)
    release_sender();
  if (receive_)
    deliver();
}

void Message::deliver()
{
  Request& receive = *receive_;
  const double capacity = receive.bytes();
  receive.status.truncated = bytes() > capacity;
  const void* data = copied.empty() ? source_buffer : copied.data();
  if (receive.buffer != nullptr && data != nullptr) {
    const auto received = static_cast<size_t>(std::min(bytes(), capacity));
    const Datatype* type = receive.datatype.get();
    if (type != nullptr && not type->is_contiguous())
      type->unpack(static_cast<const std::byte*>(data), type->size() > 0 ? received / type->size() : 0,
                   receive.buffer);
    else
      std::memcpy(receive.buffer, data, received);
  }
  receive.pending_overhead = receive_overhead_;
  receive_->complete();
}

} // namespace mpisim::mpi
