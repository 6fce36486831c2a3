// Observation outside the models: the MPI layer and the front ends report what happened, and timeline writers or
// statistics subscribe (World::add_observer). Nothing is recorded when nobody observes.
#pragma once

#include "models/NetworkModel.hpp"

#include <cstdint>
#include <span>

namespace mpisim::mpi {

// One MPI call (or computation, or sleep) of one rank, reported when it ends.
struct CallRecord {
  int rank;              // world rank
  const char* operation; // "send", "allreduce", "compute", "sleep", ... (static storage)
  double start;
  double end;
  int peer = -1;    // world rank of the partner or root, -1 when none
  double bytes = 0; // payload (collectives: this rank's send buffer)
  int tag = 0;
  int communicator = 0; // context id (0 = MPI_COMM_WORLD)
  double flops = 0;     // computations
  // Which messages (ids of MessageRecord::id) the call sent and whose receive it completed, when the front end knows
  // (replay does): a timeline then draws each arrow from the exact sending call to the exact receiving call, however
  // many messages with the same source, destination and tag are in flight. 0 / empty: none, or not known.
  uint64_t sent = 0;
  std::span<const uint64_t> received{}; // valid during the report only
  // The same for the messages a collective algorithm sent and received inside the call (their arrows start at their
  // posting dates and end at the end of the call that completed their receive). Empty: none, or not known.
  std::span<const uint64_t> collective_sent{}, collective_received{};
};

// One point-to-point message, reported when its data has arrived. Collective algorithms' messages are included:
// they carry negative tags.
struct MessageRecord {
  int source; // world ranks
  int destination;
  int tag;
  int communicator;
  double bytes;
  double posted;  // the send was posted
  double started; // the data started moving (eager: at the send; otherwise at the match)
  double arrived; // the last byte arrived
  models::Protocol protocol;
  uint64_t id = 0; // unique in the run, from 1 in posting order (0: not known)
  bool collective() const { return tag < 0; }
};

// A rank failed (--fail, --fail-mtbf), reported at its date: it does nothing after it.
struct FailureRecord {
  int rank; // world rank
  double date;
};

// An attempt of a restarted online run (mpisim run --restart): attempt k+1 starts at the end of attempt k plus the
// restart cost. Reported when the timeline of the attempt running now starts: the attempts before it with their
// ends, then this one with end < 0 (still running).
struct AttemptRecord {
  int attempt; // from 1
  double start;
  double end;          // < 0: not ended when reported
  const char* outcome; // how it ended ("process-failure", ...); "" when not ended (static storage or the caller's)
  bool ended() const { return end >= 0; }
};

class Observer {
public:
  virtual ~Observer() = default;
  virtual void call(const CallRecord&) {}
  virtual void message(const MessageRecord&) {}
  virtual void failure(const FailureRecord&) {}
  virtual void attempt(const AttemptRecord&) {}
};

} // namespace mpisim::mpi
