#include "mpi/Mailbox.hpp"

namespace mpisim::mpi {

bool Mailbox::matches(int context, int source, int tag, const Message& message)
{
  if (message.context() != context)
    return false;
  if (source != kAnySource && source != message.source())
    return false;
  return tag == kAnyTag ? message.tag() >= 0 : tag == message.tag();
}

void Mailbox::post_send(const MessagePtr& message)
{
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    const Request& receive = **it;
    if (matches(receive.comm().context(), receive.peer(), receive.tag(), *message)) {
      RequestPtr taken = std::move(*it);
      posted_.erase(it);
      message->match(std::move(taken));
      return;
    }
  }
  unexpected_.push_back(message);
  // Wake the probes this message satisfies (they look again when they run).
  for (auto it = probes_.begin(); it != probes_.end();) {
    Request& probe = **it;
    if (matches(probe.comm().context(), probe.peer(), probe.tag(), *message)) {
      probe.status = Status{message->source(), message->tag(), message->bytes(), false};
      RequestPtr done = std::move(*it);
      it = probes_.erase(it);
      done->complete();
    } else {
      ++it;
    }
  }
}

void Mailbox::post_receive(const RequestPtr& receive)
{
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (matches(receive->comm().context(), receive->peer(), receive->tag(), **it)) {
      MessagePtr message = std::move(*it);
      unexpected_.erase(it);
      message->match(receive);
      return;
    }
  }
  posted_.push_back(receive);
}

const Message* Mailbox::find_unexpected(int context, int source, int tag) const
{
  for (const MessagePtr& message : unexpected_)
    if (matches(context, source, tag, *message))
      return message.get();
  return nullptr;
}

} // namespace mpisim::mpi
