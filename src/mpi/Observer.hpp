// Observation outside the models: the MPI layer and the front ends report what happened, and timeline writers or
// statistics subscribe (World::add_observer). Nothing is recorded when nobody observes.
#pragma once

#include "models/NetworkModel.hpp"

#include <cstdint>

namespace mpisim::mpi {

// One MPI call (or computation, or sleep) of one rank, reported when it ends.
struct CallRecord {
  int rank;              // world rank
  const char* operation; // "send", "allreduce", "compute", "sleep", ... (static storage)
  double start;
  double end;
  int peer = -1;         // world rank of the partner or root, -1 when none
  double bytes = 0;      // payload (collectives: this rank's send buffer)
  int tag = 0;
  int communicator = 0;  // context id (0 = MPI_COMM_WORLD)
  double flops = 0;      // computations
};

// One point-to-point message, reported when its data has arrived. Collective algorithms' messages are included:
// they carry negative tags.
struct MessageRecord {
  int source;      // world ranks
  int destination;
  int tag;
  int communicator;
  double bytes;
  double posted;   // the send was posted
  double started;  // the data started moving (eager: at the send; otherwise at the match)
  double arrived;  // the last byte arrived
  models::Protocol protocol;
  bool collective() const { return tag < 0; }
};

class Observer {
public:
  virtual ~Observer() = default;
  virtual void call(const CallRecord&) {}
  virtual void message(const MessageRecord&) {}
};

} // namespace mpisim::mpi
