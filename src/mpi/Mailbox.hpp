// Per-rank matching queues: sends that arrived before their receive (unexpected), receives posted before their send,
// and blocked probes. Matching follows MPI: same context, source equal or any, tag equal or any (any matches only
// tags >= 0, so collective traffic on negative tags never matches an application's MPI_ANY_TAG), and the first
// match in posting order wins (non-overtaking).
#pragma once

#include "mpi/MatchQueue.hpp"
#include "mpi/Message.hpp"

#include <functional>
#include <vector>

namespace mpisim::mpi {

class Mailbox {
public:
  // A send arrives: matched against posted receives, else queued as unexpected.
  void post_send(const MessagePtr& message);
  // A send whose model lets it reach the matching later (models::Transfer::at_receiver, bxi: at the target's NIC):
  // kept aside, so that it may still be cancelled, until `reached` posts it.
  void post_on_the_way(const MessagePtr& message) { on_the_way_.push_back(message); }
  void reached(const MessagePtr& message);
  // A receive is posted: matched against unexpected sends, else queued.
  void post_receive(const RequestPtr& receive);
  // The first unexpected message a probe with this filter would match, or null.
  const Message* find_unexpected(int context, int source, int tag) const;
  void add_probe(const RequestPtr& probe) { probes_.push_back({key_of(*probe), probe}); }
  // A blocked probe no longer waited for (a fast-forwarded poll that another change woke).
  void remove_probe(const Request& probe);
  // Matched probe (MPI_Improbe): takes the first unexpected message with this filter out of the queue (null if
  // none), so that only the MPI_Mrecv given it can receive it.
  MessagePtr claim_unexpected(int context, int source, int tag);

  // MPI_Cancel: drop a receive still waiting for its message, or a message no receive has matched yet. False when
  // it is too late (matched already, or not here).
  bool cancel_receive(const Request& receive);
  bool cancel_send(const Request& send);

  // Process failures: takes out the posted receives (probes) `pick` chooses, in posting order; drops a message.
  std::vector<RequestPtr> take_posted(const std::function<bool(const Request&)>& pick);
  std::vector<RequestPtr> take_probes(const std::function<bool(const Request&)>& pick);
  void drop_unexpected(const Message& message);

  // Early loads for a send or a receive about to match here (the mailbox of a rank that has not run for a while is
  // out of the cache, and so is the head of its queue): first the mailbox, then, once that has had time to arrive,
  // the entry that matching reads first. Only loads: matching does the same whether or not they have arrived.
  void prefetch() const { __builtin_prefetch(&posted_); }
  void prefetch_posted_head() const { posted_.prefetch_head(); }
  void prefetch_unexpected_head() const { unexpected_.prefetch_head(); }

  size_t unexpected_count() const { return unexpected_.size(); }
  size_t posted_count() const { return posted_.size(); }

private:
  // What matching compares, kept beside each queued entry: a scan reads the queue alone, not each request or message
  // (a cache miss each when ranks are many).
  struct MatchKey {
    int context;
    int source; // a receive's or probe's: a rank or kAnySource; a message's: its sender
    int tag;
  };
  static MatchKey key_of(const Request& receive) { return {receive.comm().context(), receive.peer(), receive.tag()}; }
  static MatchKey key_of(const Message& message) { return {message.context(), message.source(), message.tag()}; }
  template <class T> struct Keyed {
    MatchKey key;
    T item;
  };
  // Inline: called once per queued entry scanned, for every message and receive (was a call per entry).
  static bool matches(const MatchKey& filter, const MatchKey& message)
  {
    if (message.context != filter.context)
      return false;
    if (filter.source != kAnySource && filter.source != message.source)
      return false;
    return filter.tag == kAnyTag ? message.tag >= 0 : filter.tag == message.tag;
  }
  // Wakes the probes a newly queued message satisfies; a matched probe takes it. True when one did.
  bool wake_probes(const MessagePtr& message, const MatchKey& key);

  MatchQueue<Keyed<MessagePtr>> unexpected_;
  MatchQueue<Keyed<RequestPtr>> posted_;
  MatchQueue<Keyed<RequestPtr>> probes_;
  MatchQueue<MessagePtr> on_the_way_; // posted, not yet at the receiver's matching (in the order they were sent)
};

} // namespace mpisim::mpi
