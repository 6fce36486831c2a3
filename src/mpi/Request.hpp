// MPI requests. A request is an activity: waiting for it is waiting for the activity, and it completes when the
// message it stands for has been delivered (receive) or may be reused (send).
#pragma once

#include "kernel/Activity.hpp"
#include "mpi/Communicator.hpp"
#include "mpi/Datatype.hpp"
#include "mpi/Failures.hpp"

#include <cstdint>
#include <memory>

namespace mpisim::mpi {

class Message;

struct Status {
  int source = kAnySource; // communicator-local rank
  int tag = kAnyTag;
  double bytes = 0;
  bool truncated = false;
  uint64_t message = 0;   // id of the message (MessageRecord::id): send requests from posting, receives from matching
  bool cancelled = false; // MPI_Cancel took the request back before it was matched
};

// MPI's send modes, as far as they change what the runtime does (a ready send is a standard one):
//   Standard    - the model's protocol for the size decides;
//   Synchronous - carried as a rendezvous whatever the size: the send completes only once a receive has matched;
//   Buffered    - never waits for the receiver: the data leaves from a copy (eager or detached), and the send
//                 request completes when that copy is no longer needed (the data has arrived), which frees its room
//                 in the attached buffer; the caller returns at once.
enum class SendMode : uint8_t { Standard, Synchronous, Buffered };

// Generalized: an operation the application carries out itself (MPI_Grequest_start), complete when it says so.
enum class RequestKind : uint8_t { Send, Receive, Probe, Collective, Generalized };

class Request : public kernel::Activity {
public:
  Request(RequestKind kind, int owner, const Communicator& comm, int peer, int tag, double bytes)
      : kind_(kind), owner_(owner), peer_(peer), tag_(tag), comm_(&comm), bytes_(bytes)
  {
  }

  RequestKind kind() const { return kind_; }
  int owner() const { return owner_; } // world rank that created it
  const Communicator& comm() const { return *comm_; }
  int peer() const { return peer_; } // local rank in comm, or kAnySource
  int tag() const { return tag_; }
  double bytes() const { return bytes_; }

  std::string describe() const override;

  // Asks the processor to load every line of the request. Only loads.
  void prefetch() const;

private:
  // What the request is, first: with the activity's state and the status after it, what matching, delivering, waiting
  // and testing read lies in the request's first two cache lines (its pooled block starts on one, kernel/Pool.hpp),
  // not in its last, so that a request that has gone cold costs fewer misses. Members in an order that leaves no
  // padding between them but inside Status (a request is pooled, several are in flight per rank).
  RequestKind kind_;

public:
  // A matched probe (MPI_Mprobe): the probe takes the message it matches out of the queue (claimed below).
  bool claims_message = false;
  // A test or a wait found it complete (SimGrid marks it finished then): MPI_Testall does not test it again
  // (--polling smpi), and a later test or wait asks nothing of SimGrid's kernel (--scheduling smpi).
  bool finished = false;
  // A send whose request completed at its post (eager or detached protocol): SimGrid keeps no activity for it, so
  // waiting for it or testing it is no kernel call (--scheduling smpi).
  bool detached_send = false;

private:
  int owner_;
  int peer_;
  int tag_;
  const Communicator* comm_;
  double bytes_;

public:
  Status status;
  // Receive side: where the data goes (online mode; null in replay), and its datatype when it is not plain bytes
  // (the message is unpacked into whole elements of it).
  void* buffer = nullptr;
  DatatypePtr datatype;
  // Seconds the owner still has to spend once the request is complete (receive overhead of eager/detached data),
  // paid by the first wait or successful test.
  double pending_overhead = 0;
  // Receive side: the date the receive was posted (xsim's t_post).
  double posted_at = 0;
  // The operation's name, for reports: a non-blocking collective's; a send's, the MPI call that posted it (online).
  const char* operation = nullptr;
  // A buffered send's local request (complete at once): the message it stands for, which cancelling it takes back
  // until a receive matches it.
  std::shared_ptr<Request> buffered_copy;
  // Matched probes (MPI_Mprobe): the probe takes the message it matches out of the queue, so that no other receive
  // can match it; the message waits here for MPI_Mrecv (claims_message above).
  std::shared_ptr<Message> claimed;
  // Completed by a process failure or a revocation rather than by its operation (mpi/Failures.hpp): the failed
  // world rank (-1 for a revocation) and its date.
  double failed_at = 0;
  int failed_rank = -1;
  FailureKind failure = FailureKind::None;
  // Where the front end created it (replay: the trace line), for error messages.
  uint32_t origin = 0;
};

inline void Request::prefetch() const
{
  // The whole lines from its start, then the line of its last byte: pooled after its control block, a request need
  // not start on a line.
  const auto* first = reinterpret_cast<const char*>(this);
  kernel::prefetch_lines(first, sizeof(Request) / kernel::kCacheLineBytes);
  __builtin_prefetch(first + sizeof(Request) - 1);
}

using RequestPtr = std::shared_ptr<Request>;

} // namespace mpisim::mpi
