// One MPI rank's point-to-point interface, called from inside its actor. The replay front end, the collectives and
// the online mode all go through it.
#pragma once

#include "mpi/Request.hpp"
#include "mpi/World.hpp"

#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace mpisim::mpi {

// The messages one call of a front end sent and whose receive it completed: what observers are told in
// CallRecord::sent, ::received and ::collective_sent, ::collective_received. A front end that reports its calls opens
// one for each call (Rank::set_message_log); with none open, nothing is noted.
struct MessageLog {
  std::vector<uint64_t> sent, received;                       // point-to-point
  std::vector<uint64_t> collective_sent, collective_received; // inside collective algorithms (negative tags)
  void clear()
  {
    sent.clear();
    received.clear();
    collective_sent.clear();
    collective_received.clear();
  }
};

class Rank {
public:
  Rank(World& world, int world_rank) : world_(world), world_rank_(world_rank) {}

  World& world() { return world_; }
  int world_rank() const { return world_rank_; }
  platform::HostId host() const { return world_.host_of(world_rank_); }

  // Non-blocking point-to-point. dst/src are ranks in `comm`; `data` is optional (null in replay).
  RequestPtr isend(const Communicator& comm, int dst, int tag, double bytes, const void* data = nullptr);
  RequestPtr irecv(const Communicator& comm, int src, int tag, double bytes, void* buffer = nullptr);

  // Typed forms (online mode): `count` elements of `type` at `buffer`; non-contiguous data is packed at the send
  // and unpacked at the delivery. A buffered send's request completes once its copy is no longer needed.
  RequestPtr isend(const Communicator& comm, int dst, int tag, const void* buffer, size_t count,
                   const DatatypePtr& type, SendMode mode = SendMode::Standard);
  RequestPtr irecv(const Communicator& comm, int src, int tag, void* buffer, size_t count, const DatatypePtr& type);

  // Blocking forms.
  // Returns the id of the message sent (MessageRecord::id). Standard or synchronous mode.
  uint64_t send(const Communicator& comm, int dst, int tag, double bytes, const void* data = nullptr,
                SendMode mode = SendMode::Standard);
  // Blocking buffered send (MPI_Bsend): returns once the message is posted, with the send overhead of a blocking
  // call; the request returned completes when the copy of the data is no longer needed.
  RequestPtr bsend(const Communicator& comm, int dst, int tag, double bytes, const void* data);
  Status recv(const Communicator& comm, int src, int tag, double bytes, void* buffer = nullptr);
  // Both at once; a rank exchanging with itself copies locally without any message.
  Status sendrecv(const Communicator& comm, int dst, int send_tag, double send_bytes, int src, int recv_tag,
                  double recv_bytes, const void* send_data = nullptr, void* recv_buffer = nullptr);

  Status wait(Request& request);
  void waitall(std::span<const RequestPtr> requests);
  size_t waitany(std::span<const RequestPtr> requests);

  // Polling calls, each costing what the world's polling rule says (Polling.hpp, docs/specifications/polling.md).
  // A request that completes pays its pending receive overhead. Null entries of the spans are skipped.
  bool test(Request& request);
  // MPI_Test of a request that is not active (a persistent one not started): complete, at a test's cost.
  void test_inactive();
  // MPI_Testany: the index of a completed request, or none.
  std::optional<size_t> testany(std::span<const RequestPtr> requests);
  // MPI_Testall: whether all are complete (then each has paid its overhead).
  bool testall(std::span<const RequestPtr> requests);
  // MPI_Testsome: whether one at least is complete (the caller finishes those with wait()).
  bool testsome(std::span<const RequestPtr> requests);
  // MPI_Iprobe: the status of the first message matching now, or none.
  std::optional<Status> iprobe(const Communicator& comm, int src, int tag);
  // MPI_Probe: until a matching message is available (without receiving it); under SimGrid's rule a loop of
  // iprobes, as SimGrid builds it.
  Status probe(const Communicator& comm, int src, int tag);
  // Blocks until a matching message is available, at no cost: the runtime's own probes (one-sided operations).
  Status wait_for_message(const Communicator& comm, int src, int tag);

  // Matched probes (MPI_Mprobe, MPI_Improbe): the message is taken out of matching, for mrecv only. improbe, a
  // polling call, returns null when no message matches now.
  MessagePtr mprobe(const Communicator& comm, int src, int tag);
  MessagePtr improbe(const Communicator& comm, int src, int tag);

  // The program read the simulated clock: a polling loop bounded by time must see time pass at each poll.
  void note_clock_read() { end_polling_streak(); }
  // The engine stalled: a poll fast-forwarded now returns (World::release_fast_forwarded_polls). True if there was.
  bool release_fast_forward();
  RequestPtr mrecv(const MessagePtr& message, void* buffer, size_t count, const DatatypePtr& type);

  // MPI_Cancel: a receive not matched yet, or a send whose message no receive has matched, is taken back and its
  // request completes with status.cancelled set. False (nothing changes) when it is too late.
  bool cancel(Request& request);

  // Computation on the rank's host (under --scheduling smpi, SimGrid's execution: three kernel calls, then its wait).
  void compute(double flops);

  // Sequence number of this rank's next non-blocking collective on `comm` (the same on every member, since MPI
  // requires collectives in the same order everywhere).
  uint32_t next_nonblocking_collective(const Communicator& comm)
  {
    if (nonblocking_collectives_ == nullptr)
      nonblocking_collectives_ = std::make_unique<std::unordered_map<int, uint32_t>>();
    return (*nonblocking_collectives_)[comm.context()]++;
  }
  void sleep(double seconds) { world_.engine().sleep(seconds); }

  // The MPI call the rank is in (its outermost, "PMPI_Send" or "MPI_Send"; null between calls), which the sends it
  // posts keep (Request::operation) for reports. Set by the online bindings' ApiScope; null in replay.
  void enter_call(const char* name)
  {
    if (call_depth_++ == 0)
      call_ = name;
  }
  void leave_call()
  {
    if (--call_depth_ == 0)
      call_ = nullptr;
  }

  // Starts a helper actor, "rank R <what>", that carries out an operation for this rank while the rank goes on (a
  // non-blocking collective, a posted collective file access). Called by the rank's own actor, so the helper acts in
  // the rank's memory context (an actor inherits its spawner's, kernel/MemoryContexts.hpp): it may touch the rank's
  // buffers and call its reduction operations.
  void spawn_helper(const std::string& what, std::function<void()> body);

  // Where the ids of the messages this rank sends and receives are noted from now on (null: nowhere).
  void set_message_log(MessageLog* log) { log_ = log; }

  // --scheduling smpi (same-date-order.md, "Rounds"): the caller's operation is `calls` kernel calls (simcalls) in
  // SimGrid 3.32 answered at once; after each the rank gives way to the other ranks ready at this date. Nothing under
  // the default scheduling.
  void kernel_calls(int calls = 1);

private:
  // Process failures: throws ProcessFailure when an operation with `peer` on `comm` cannot start (the peer failed,
  // and for a receive no message of it is here; MPI_ANY_SOURCE with an unacknowledged failure; a revoked `comm`).
  void check_peer(const Communicator& comm, int peer, int tag, bool receiving) const;
  // A request completed by a failure or a revocation raises it in its owner.
  void throw_if_failed(const Request& request) const;
  void note_received(const Request& request);
  void pay_pending_overhead(Request& request);
  // --scheduling smpi (same-date-order.md, "Rounds"): the operation is `calls` kernel calls (simcalls) in SimGrid
  // 3.32; after each the rank gives way to the other ranks ready at this date. Nothing under the default scheduling.
  bool in_rounds() const { return world_.settings().scheduling == Scheduling::SmpiRounds; }
  // SimGrid's wait for one request: no kernel call for a detached send or a finished request; otherwise one, answered
  // at once when the request is complete, blocking until it is otherwise.
  void await(Request& request);
  // SimGrid's waitany: the first unfinished detached send without a kernel call, else one kernel call that answers
  // with the first complete request in array order, or blocks until one completes. Marks the answer finished.
  size_t await_any(std::span<const RequestPtr> requests);
  // Computation whose SimGrid execution is set up by `setup_calls` kernel calls before its start (under rounds).
  void execute(double flops, int setup_calls);
  // The realistic rule: one polling call looking at `pending` (requests not complete) and `filter` (a probe's),
  // whose answer `found` gives. Fast-forwards a repeated unsuccessful poll to the next change.
  template <class Found>
  bool poll(const std::vector<kernel::ActivityPtr>& pending, const ProbeFilter* filter, bool may_fast_forward,
            Found found);
  bool wait_for_polled_change(); // false when released (nothing changed)
  void end_polling_streak();
  // SimGrid's rule: one test of a request (the building block of MPI_Test, Testall, Testsome).
  bool smpi_test(Request& request);
  void smpi_iprobe_delay();
  MessagePtr claim_message(const Communicator& comm, int src, int tag);
  RequestPtr post_receive(const Communicator& comm, int src, int tag, double bytes, void* buffer, DatatypePtr type);
  // `data` is contiguous payload to copy or reference; `packed` is payload already packed (moved into the message).
  RequestPtr post_send(const Communicator& comm, int dst, int tag, double bytes, const void* data,
                       std::vector<std::byte> packed, bool blocking, SendMode mode = SendMode::Standard);

  const char* posting_call() const; // the call a send posted now is part of, or null

  World& world_;
  int world_rank_;
  int call_depth_ = 0;         // in the padding after world_rank_
  const char* call_ = nullptr; // enter_call
  PollStreak streak_;
  std::shared_ptr<PollRelease> release_; // while fast-forwarded
  // By communicator context; made by the first non-blocking collective (a replay of millions of ranks may have none:
  // an empty map inline costs 56 bytes per rank).
  std::unique_ptr<std::unordered_map<int, uint32_t>> nonblocking_collectives_;
  MessageLog* log_ = nullptr;
};

} // namespace mpisim::mpi
