// A point-to-point message between its send and its delivery.
//
// The protocol (eager, detached, rendezvous) decides when the transfer starts and when the send request completes:
//   eager      - transfer starts at the send; the send completes at once;
//   detached   - the send completes at once; the transfer starts when a receive matches;
//   rendezvous - the transfer starts when a receive matches; the send completes when the data has arrived.
// The receive completes when the transfer has ended and the message is matched, whichever comes last.
// A buffered send is eager or detached, but its send request completes when the data has arrived: it stands for the
// room the message takes in the attached buffer. The protocol and whether the sender is held are decided by
// mpi::choose_send_protocol (SendProtocol.hpp). An unmatched message may be cancelled.
#pragma once

#include "models/NetworkModel.hpp"
#include "mpi/Request.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::mpi {

class World;
class OverflowList;
class Message;

using MessagePtr = std::shared_ptr<Message>;

class Message : public kernel::ActivityObserver, public std::enable_shared_from_this<Message> {
public:
  Message(World& world, RequestPtr send, int source_world, int destination_world, models::Protocol protocol,
          bool holds_sender, double receive_overhead, double posted_at, uint64_t id = 0)
      : id_(id), protocol_(protocol), holds_sender_(holds_sender), context_(send->comm().context()),
        source_(send->comm().local_rank(source_world)), tag_(send->tag()), destination_world_(destination_world),
        bytes_(send->bytes()), world_(world), receive_overhead_(receive_overhead), source_world_(source_world),
        posted_at_(posted_at), send_(std::move(send))
  {
  }
  uint64_t id() const { return id_; }

  const Request& send_request() const { return *send_; }
  // The send's envelope, copied from its request: matching and delivery read the message alone (the send request,
  // created long before and gone cold, would cost a cache miss each).
  int context() const { return context_; }
  int source() const { return source_; } // local rank in the communicator
  int tag() const { return tag_; }
  double bytes() const { return bytes_; }
  models::Protocol protocol() const { return protocol_; }

  // `self` below is the caller's reference to this message, which the transfer copies to keep it alive while it runs:
  // a reference taken from `this` (shared_from_this) costs an atomic compare-and-swap, which waits for every store
  // before it (at a match: the receive's, to a request gone cold).
  void start_transfer(const MessagePtr& self); // at the send or at the match (mpi/SendProtocol.hpp, rule 6)
  // After the post: into the receiver's matching now, or, when the model says it gets there later
  // (models::Transfer::at_receiver, bxi: at the target's NIC), on its way until then.
  void enter_matching(const MessagePtr& self);
  void match(RequestPtr receive, const MessagePtr& self); // a receive takes this message
  // MPI_Cancel of the send before any receive matched it (the mailbox has already dropped it): the send request
  // completes, marked cancelled, and the data is never delivered.
  void cancel();
  bool is_sent_by(const Request& send) const { return send_.get() == &send; }

  // Process failures (World::fail_rank): who sends to whom, whether the data has all arrived, the requests.
  int source_world() const { return source_world_; }
  int destination_world() const { return destination_world_; }
  bool arrived() const { return arrived_; }
  bool dropped() const { return dropped_; }
  Request& send() const { return *send_; }
  Request* receive() const { return receive_.get(); }
  // Never delivered: the sender failed before the data arrived, or the receiver failed. A transfer in flight runs to
  // its end (it keeps its share of the network), and nothing happens then.
  void drop()
  {
    dropped_ = true;
    leave_overflow_buffer();
  }

private:
  // Holds the message while its transfer runs (nothing when held already: an eager message started at its post, dated
  // at its match).
  void keep_in_flight(const MessagePtr& self)
  {
    if (not in_flight_)
      in_flight_ = self;
  }
  void activity_done(kernel::Activity& activity) override;
  void watch_arrival();
  void date_arrival_at_match(const MessagePtr& self);
  void arrive();
  void release_sender();
  void reach_receiver();
  // At the receiver's NIC with no receive to take it (bxi): into the overflow list, or the run ends for want of room.
  void land_if_unexpected();
  // Why the run ends when `overflow` has no buffer left (OverflowExhausted): the receiver first, then the rest.
  std::string overflow_report(const OverflowList& overflow) const;
  void leave_overflow_buffer();       // a receive took it (or it was cancelled, dropped): its room is free again
  void copy_out_of_overflow_buffer(); // the matched receive copies an eager payload out, then it is delivered
  void deliver();
  bool receives_into_private_memory(const Request& receive) const;
  // The rendezvous payload read from the sender's memory into `staged` when it lies where each rank has its own
  // values at the same addresses; else the sender's buffer itself.
  const void* staged_from_sender(std::vector<std::byte>& staged) const;
  void take_payload_from_sender(); // into `copied`, read in the sender's memory

  // In the order matching, arrival and delivery read them: the state and the envelope in the pooled block's first two
  // cache lines (a block of 320 bytes starts on a line, kernel/Pool.hpp), then the transfer and the payload; what
  // only the post and rare paths read comes last. Little padding (messages are pooled, many in flight).
  uint64_t id_;
  models::Protocol protocol_;
  bool started_ = false;
  bool arrived_ = false;
  bool sender_released_ = false;
  bool holds_sender_; // the send request completes at arrival (or the model's release), not at the post
  bool cancelled_ = false;
  bool dropped_ = false;
  bool arrival_reaches_receiver_ = false; // the model's at_receiver is the arrival itself (bxi eager: the PUT)
  bool reached_receiver_ = false;
  bool on_the_way_ = false;  // in the receiver's mailbox, waiting for at_receiver
  int overflow_buffer_ = -1; // the overflow buffer holding it, unexpected at a bxi receiver (OverflowList)
  int context_;
  int source_;
  int tag_;
  int destination_world_;
  double bytes_;
  World& world_;
  std::shared_ptr<Message> in_flight_; // keeps the message alive while its transfer runs
  RequestPtr receive_;
  models::Transfer transfer_;

public:
  // Online mode: the payload, copied at the send for eager/detached messages, read at delivery otherwise.
  std::vector<std::byte> copied;
  const void* source_buffer = nullptr;

private:
  double receive_overhead_;
  int source_world_;
  double posted_at_;
  double started_at_ = 0;
  RequestPtr send_;
  std::shared_ptr<kernel::Activity> copy_out_; // the receive's copy out of that buffer
};

} // namespace mpisim::mpi
