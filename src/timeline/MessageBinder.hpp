// Ties each message to the call that sent it and the call that received it, as the simulation reports them (calls
// when they end, messages when their last byte arrives), so that writers can draw a message as an arrow from the
// sending slice to the receiving slice.
//
// Exact binding. When the records carry message ids (MessageRecord::id, CallRecord::sent and ::received: the replay
// gives them), a point-to-point message starts at the start of the call that sent it and ends at the end of the call
// that completed its receive, whatever else is in flight between the same ranks with the same tag. A message whose
// receive no reported call completed (completed at the end of a rank's trace) ends at its arrival. Flow ids are then
// the message ids minus one. Messages inside collectives (with internals) that carry ids are bound the same way, by
// the calls that name them (CallRecord::collective_sent, ::collective_received: replay and online both do), except
// that their arrows start at their posting dates, inside the sending call. The rules below apply to records without
// ids.
//
// Sending call. Point-to-point: the source's send, isend or sendRecv to that destination with that tag and
// communicator during which the message was posted; the arrow starts at that call's start. Inside a collective: the
// source's call running when the message was posted; the arrow starts at the posting date.
//
// Receiving call. Point-to-point: the destination's first recv, wait or test naming that source and tag (the
// earliest-posted message when several qualify, as MPI matches them), or sendRecv (tag 0), or waitall, that ends at or
// after the arrival; the arrow ends at that call's end. Inside a collective: the destination's first collective call
// ending at or after the arrival. A message no reported call claims (a rank's requests completed at the end of its
// trace) ends at its arrival.
//
// Limits, without ids only: the records say nothing of which request a wait completes, so a wait for an isend to
// rank p with tag t can claim a message received from p with tag t that arrived before it ended (the arrow then ends
// one slice early), and messages with the same key posted at the same date are told apart by arrival order.
#pragma once

#include "mpi/Observer.hpp"

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace mpisim::timeline {

struct Flow {
  uint64_t id; // 0, 1, 2, ... in the order messages or sending calls are first seen
  int source;  // world ranks
  int destination;
  int tag;
  int communicator;
  double bytes;
  double start;    // started flows: the arrow's start
  double end;      // ended flows: the arrow's end
  bool collective; // sent inside a collective algorithm
};

class MessageBinder {
public:
  // Without `internals`, messages sent inside collectives are ignored.
  explicit MessageBinder(bool internals) : internals_(internals) {}

  // A call ended (and the writer wrote it): appends the flows that start in it and those that end in it.
  void call(const mpi::CallRecord& call, std::vector<Flow>& started, std::vector<Flow>& ended);
  // A message arrived: appends the flows whose start is known now (their sending call was already reported), and
  // the flow that ends now if its receiving call was reported first.
  void message(const mpi::MessageRecord& message, std::vector<Flow>& started, std::vector<Flow>& ended);
  // The simulation is over: flows still without a sending call start at their posting date, flows without a
  // receiving call end at their arrival. Flows whose message never arrived (the run failed) never end.
  void finish(std::vector<Flow>& started, std::vector<Flow>& ended);

private:
  struct Key {
    int source, destination, tag, communicator;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const
    {
      uint64_t h = static_cast<uint32_t>(k.source);
      h = h * 0x9E3779B97F4A7C15ull ^ static_cast<uint32_t>(k.destination);
      h = h * 0x9E3779B97F4A7C15ull ^ static_cast<uint32_t>(k.tag);
      h = h * 0x9E3779B97F4A7C15ull ^ static_cast<uint32_t>(k.communicator);
      return static_cast<size_t>(h ^ (h >> 29));
    }
  };
  struct SentCall {
    double start, end;
    uint64_t id;
  };
  // Point-to-point sends between one pair with one tag: reported sending calls whose message has not arrived, and
  // arrived messages whose sending call is not reported yet (their Flow::start holds the posting date).
  struct Sends {
    std::deque<SentCall> calls;
    std::deque<Flow> messages;
  };
  struct Arrived {
    Flow flow;
    double posted;
    double arrived;
  };

  void grow(int rank);
  void claim(const mpi::CallRecord& call, std::vector<Flow>& ended);
  void start_exact(const mpi::CallRecord& call, std::vector<Flow>& started);
  void end_exact(uint64_t message, double end, std::vector<Flow>& ended);
  void start_inside(uint64_t message, std::vector<Flow>& started);
  void message_exact(const mpi::MessageRecord& message, std::vector<Flow>& started, std::vector<Flow>& ended);

  bool internals_;
  uint64_t next_id_ = 0;
  std::unordered_map<Key, Sends, KeyHash> sends_;
  std::vector<std::deque<Arrived>> arrived_;     // per destination, in arrival order: waiting for a receiving call
  std::vector<std::vector<Flow>> posted_inside_; // per source: collective messages whose sending call is not reported
  std::vector<double> last_end_;                 // per rank: the end of its last reported call

  // Exact binding, by message id.
  std::unordered_set<uint64_t> exact_started_;          // sending call reported, message not arrived yet
  std::unordered_set<uint64_t> inside_started_;         // the same for messages inside collectives
  std::unordered_map<uint64_t, Flow> exact_unsent_;     // arrived, sending call not reported (start: posting)
  std::unordered_map<uint64_t, Arrived> exact_arrived_; // arrived, receiving call not reported
  std::unordered_map<uint64_t, double> exact_claimed_;  // receiving call reported (its end) before the arrival
};

} // namespace mpisim::timeline
