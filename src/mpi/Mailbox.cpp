#include "mpi/Mailbox.hpp"

namespace mpisim::mpi {

void Mailbox::post_send(const MessagePtr& message)
{
  const MatchKey key = key_of(*message);
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if (matches(it->key, key)) {
      RequestPtr taken = std::move(it->item);
      posted_.erase(it);
      message->match(std::move(taken), message);
      return;
    }
  }
  if (not wake_probes(message, key))
    unexpected_.push_back({key, message});
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

bool Mailbox::wake_probes(const MessagePtr& message, const MatchKey& key)
{
  // In posting order: plain probes see the message; the first matched probe takes it, and later probes do not see
  // it any more.
  for (auto it = probes_.begin(); it != probes_.end();) {
    if (not matches(it->key, key)) {
      ++it;
      continue;
    }
    Request& probe = *it->item;
    probe.status = Status{message->source(), message->tag(), message->bytes(), false, message->id()};
    const bool claimed = probe.claims_message;
    if (claimed)
      probe.claimed = message;
    RequestPtr done = std::move(it->item);
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
    if (matches({context, source, tag}, it->key)) {
      MessagePtr message = std::move(it->item);
      unexpected_.erase(it);
      return message;
    }
  }
  return nullptr;
}

void Mailbox::remove_probe(const Request& probe)
{
  for (auto it = probes_.begin(); it != probes_.end(); ++it) {
    if (it->item.get() == &probe) {
      probes_.erase(it);
      return;
    }
  }
}

bool Mailbox::cancel_receive(const Request& receive)
{
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if (it->item.get() == &receive) {
      posted_.erase(it);
      return true;
    }
  }
  return false;
}

bool Mailbox::cancel_send(const Request& send)
{
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (it->item->is_sent_by(send)) {
      MessagePtr message = std::move(it->item);
      unexpected_.erase(it);
      message->cancel();
      return true;
    }
  }
  for (auto it = on_the_way_.begin(); it != on_the_way_.end(); ++it) {
    if ((*it)->is_sent_by(send)) {
      MessagePtr message = std::move(*it);
      on_the_way_.erase(it);
      message->cancel();
      return true;
    }
  }
  return false;
}

namespace {
template <class Queue> std::vector<RequestPtr> take_from(Queue& queue, const std::function<bool(const Request&)>& pick)
{
  std::vector<RequestPtr> taken;
  for (auto it = queue.begin(); it != queue.end();) {
    if (pick(*it->item)) {
      taken.push_back(std::move(it->item));
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
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (it->item.get() == &message) {
      unexpected_.erase(it);
      return;
    }
  }
  for (auto it = on_the_way_.begin(); it != on_the_way_.end(); ++it) {
    if (it->get() == &message) {
      on_the_way_.erase(it);
      return;
    }
  }
}

void Mailbox::post_receive(const RequestPtr& receive)
{
  const MatchKey key = key_of(*receive);
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (matches(key, it->key)) {
      MessagePtr message = std::move(it->item);
      unexpected_.erase(it);
      message->match(receive, message);
      return;
    }
  }
  posted_.push_back({key, receive});
}

const Message* Mailbox::find_unexpected(int context, int source, int tag) const
{
  for (const auto& entry : unexpected_)
    if (matches({context, source, tag}, entry.key))
      return entry.item.get();
  return nullptr;
}

} // namespace mpisim::mpi
