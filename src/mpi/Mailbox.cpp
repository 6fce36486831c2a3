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
  if (not wake_probes(message))
    unexpected_.push_back(message);
}

void Mailbox::reached(const MessagePtr& message)
{
  for (auto it = on_the_way_.begin(); it != on_the_way_.end(); ++it) {
    if (it->get() == message.get()) {
      on_the_way_.erase(it);
      if (not message->dropped()) // its sender or receiver failed meanwhile: never matched
        post_send(message);
      return;
    }
  }
  // Not on its way any more: cancelled, or dropped by a failure of its sender.
}

bool Mailbox::wake_probes(const MessagePtr& message)
{
  // In posting order: plain probes see the message; the first matched probe takes it, and later probes do not see
  // it any more.
  for (auto it = probes_.begin(); it != probes_.end();) {
    Request& probe = **it;
    if (not matches(probe.comm().context(), probe.peer(), probe.tag(), *message)) {
      ++it;
      continue;
    }
    probe.status = Status{message->source(), message->tag(), message->bytes(), false, message->id()};
    const bool claimed = probe.claims_message;
    if (claimed)
      probe.claimed = message;
    RequestPtr done = std::move(*it);
    it = probes_.erase(it);
    done->complete();
    if (claimed)
      return true;
  }
  return false;
}

MessagePtr Mailbox::claim_unexpected(int context, int source, int tag)
{
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (matches(context, source, tag, **it)) {
      MessagePtr message = std::move(*it);
      unexpected_.erase(it);
      return message;
    }
  }
  return nullptr;
}

void Mailbox::remove_probe(const Request& probe)
{
  for (auto it = probes_.begin(); it != probes_.end(); ++it) {
    if (it->get() == &probe) {
      probes_.erase(it);
      return;
    }
  }
}

bool Mailbox::cancel_receive(const Request& receive)
{
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if (it->get() == &receive) {
      posted_.erase(it);
      return true;
    }
  }
  return false;
}

bool Mailbox::cancel_send(const Request& send)
{
  for (MatchQueue<MessagePtr>* queue : {&unexpected_, &on_the_way_})
    for (auto it = queue->begin(); it != queue->end(); ++it) {
      if ((*it)->is_sent_by(send)) {
        MessagePtr message = std::move(*it);
        queue->erase(it);
        message->cancel();
        return true;
      }
    }
  return false;
}

namespace {
std::vector<RequestPtr> take_from(MatchQueue<RequestPtr>& queue, const std::function<bool(const Request&)>& pick)
{
  std::vector<RequestPtr> taken;
  for (auto it = queue.begin(); it != queue.end();) {
    if (pick(**it)) {
      taken.push_back(std::move(*it));
      it = queue.erase(it);
    } else {
      ++it;
    }
  }
  return taken;
}
} // namespace

std::vector<RequestPtr> Mailbox::take_posted(const std::function<bool(const Request&)>& pick)
{
  return take_from(posted_, pick);
}

std::vector<RequestPtr> Mailbox::take_probes(const std::function<bool(const Request&)>& pick)
{
  return take_from(probes_, pick);
}

void Mailbox::drop_unexpected(const Message& message)
{
  for (MatchQueue<MessagePtr>* queue : {&unexpected_, &on_the_way_})
    for (auto it = queue->begin(); it != queue->end(); ++it) {
      if (it->get() == &message) {
        queue->erase(it);
        return;
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
