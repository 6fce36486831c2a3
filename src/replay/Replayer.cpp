#include "replay/Replayer.hpp"

#include "common/Errors.hpp"
#include "mpi/Rank.hpp"
#include "replay/ReplayFiles.hpp"
#include "replay/RequestStore.hpp"
#include "replay/SharedCalls.hpp"
#include "replay/TraceFormat.hpp"
#include "replay/TraceReader.hpp"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <utility>

namespace mpisim::replay {

namespace {

enum class Account { Compute, Sleep, Communicate, Wait, None };

// What the ranks of one attempt share: one reference per rank to it instead of one per member.
struct ReplayShared {
  ReplayShared(const mpi::CollectiveLibrary& collectives,
               const std::vector<const mpi::Communicator*>& trace_communicators, SharedFiles& files)
      : collectives(collectives), trace_communicators(trace_communicators), files(files)
  {
  }
  const mpi::CollectiveLibrary& collectives;
  const std::vector<const mpi::Communicator*>& trace_communicators;
  SharedFiles& files;
  SharedCalls calls; // the collective calls in progress
};

// Replays one rank's stream of actions through the MPI layer.
class RankReplayer {
public:
  RankReplayer(mpi::Rank& rank, ReplayShared& shared, RankStream stream, const std::string& file, RankStats& stats)
      : rank_(rank), comm_(rank.world().comm_world()), shared_(shared), stream_(std::move(stream)), file_(file),
        stats_(stats)
  {
  }

  // Checkpoint/restart (Checkpoints.hpp): the attempt's coordinator (null: restarts from the start, no checkpoint),
  // and where this rank resumes: after `position` actions of its trace and `collectives` synchronizing world
  // collectives.
  void restart_with(CheckpointCoordinator* checkpoints, double cost, uint64_t position, uint64_t collectives)
  {
    restart_ = std::make_unique<RestartState>();
    restart_->checkpoints = checkpoints;
    restart_->cost = cost;
    restart_->resume_after = position;
    restart_->collectives_done = collectives;
  }

  // Ends the rank's replay now (the attempt is lost to a failure), unless it has ended. Needs restart_with().
  void stop(kernel::Engine& engine) const
  {
    if (restart_ && restart_->actor != nullptr)
      engine.kill(*restart_->actor);
  }

  void run()
  {
    kernel::Engine& engine = rank_.world().engine();
    TraceAction action;
    if (restart_) {
      restart_->actor = &engine.self();
      for (; restart_->position < restart_->resume_after && stream_.next(action); ++restart_->position) {
      }
    }
    const bool observed = rank_.world().observed();
    if (observed) {
      notes_ = std::make_unique<CallNotes>();
      rank_.set_message_log(&notes_->inside); // the messages of collective algorithms, for the reports
    }
    while (stream_.next(action)) {
      const double start = engine.now();
      if (observed)
        notes_->clear();
      Account account = perform(action);
      charge(account, engine.now() - start);
      ++stats_.actions;
      if (observed && account != Account::None)
        report(action, start, engine.now());
      if (shared_call_ != nullptr)
        give_back_call();
      if (restart_ && after_action())
        write_checkpoint();
    }
    rank_.set_message_log(nullptr);
    notes_.reset();
    finish();
  }

private:
  // End of the trace: like SimGrid, complete whatever is still pending.
  [[gnu::noinline]] void finish()
  {
    kernel::Engine& engine = rank_.world().engine();
    const double start = engine.now();
    wait_all(); // the timeline's notes are closed by now: nothing is noted
    charge(Account::Wait, engine.now() - start);
    stats_.finish = engine.now();
  }

  // Helpers that the loop of run() calls but that never block, or block rarely, stay out of line (gnu::noinline): a
  // suspended rank's frames are copied out and in at each switch (SharedStack), so the loop's frame is kept small.

  // This rank's part of a coordinated checkpoint: its position, and the cost of writing the image.
  [[gnu::noinline]] void write_checkpoint()
  {
    kernel::Engine& engine = rank_.world().engine();
    const double start = engine.now();
    rank_.sleep(restart_->cost);
    stats_.checkpoint += engine.now() - start;
    restart_->checkpoints->written(me(), restart_->position, engine.now());
    restart_->unmatched = 0;
  }

  // Counts the action just performed; whether it was a checkpoint's cut.
  bool after_action()
  {
    ++restart_->position;
    return std::exchange(restart_->checkpoint_due, false);
  }

  // Point-to-point messages sent (+1) and receives posted (-1), for the cuts: none crosses one.
  void count_message(int sent_or_received)
  {
    if (restart_)
      restart_->unmatched += sent_or_received;
  }

  // Collectives after which every rank has entered, whatever the algorithm: a checkpoint's cut may follow them.
  static bool synchronizing(ActionKind kind)
  {
    switch (kind) {
    case ActionKind::Barrier:
    case ActionKind::AllReduce:
    case ActionKind::AllToAll:
    case ActionKind::AllToAllV:
    case ActionKind::AllGather:
    case ActionKind::AllGatherV:
    case ActionKind::ReduceScatter: return true;
    default: return false;
    }
  }

  void charge(Account account, double seconds)
  {
    switch (account) {
    case Account::Compute: stats_.compute += seconds; break;
    case Account::Sleep: stats_.sleep += seconds; break;
    case Account::Communicate: stats_.communicate += seconds; break;
    case Account::Wait: stats_.wait += seconds; break;
    case Account::None: break;
    }
  }

  // The current collective's call goes back to the shared ones (SharedCalls).
  [[gnu::noinline]] void give_back_call()
  {
    shared_.calls.give_back(shared_call_);
    shared_call_ = nullptr;
  }

  // The current action's details: its own, or the shared copy of its call.
  const ActionDetails& details_of(const TraceAction& a) const
  {
    return a.details ? *a.details : *shared_call_->details;
  }

  // Tells observers (timelines) about one replayed action.
  [[gnu::noinline]] void report(const TraceAction& a, double start, double end) const
  {
    mpi::CallRecord record{me(), action_name(a.kind).data(), start, end};
    if (is_collective(a.kind))
      record.communicator = communicator_of(a).context();
    record.sent = notes_->sent;
    record.received = notes_->received;
    record.collective_sent = notes_->inside.collective_sent;
    record.collective_received = notes_->inside.collective_received;
    switch (a.kind) {
    case ActionKind::Compute: record.flops = a.amount; break;
    case ActionKind::Sleep:
    case ActionKind::Barrier:
    case ActionKind::WaitAll: break;
    case ActionKind::Send:
    case ActionKind::Isend:
      record.peer = a.dst;
      record.tag = a.tag;
      record.bytes = a.amount;
      break;
    case ActionKind::Recv:
    case ActionKind::Irecv:
      record.peer = a.src;
      record.tag = a.tag;
      record.bytes = a.amount >= 0 ? a.amount : 0; // negative: probed, size unknown here
      break;
    case ActionKind::Wait:
    case ActionKind::Test:
      record.peer = a.src == me() ? a.dst : a.src;
      record.tag = a.tag;
      break;
    case ActionKind::SendRecv:
      record.peer = a.dst;
      record.bytes = a.amount;
      break;
    case ActionKind::Bcast:
    case ActionKind::Reduce:
    case ActionKind::Gather:
    case ActionKind::GatherV:
    case ActionKind::Scatter:
    case ActionKind::ScatterV:
      record.peer = a.root;
      record.bytes = a.amount;
      break;
    case ActionKind::AllGatherV: // per-peer sizes: no one figure
    case ActionKind::AllToAllV:
    case ActionKind::ReduceScatter: break;
    // Their amount is an offset, a size the file is given, or an access number: no bytes move.
    case ActionKind::FileSeek:
    case ActionKind::FileSeekShared:
    case ActionKind::FileSetSize:
    case ActionKind::FileWait: break;
    default: record.bytes = a.amount; break;
    }
    rank_.world().report(record);
  }

  int me() const { return rank_.world_rank(); }

  Account perform(TraceAction& a)
  {
    if (is_file_action(a.kind)) {
      file_access(a);
      return Account::Communicate;
    }
    switch (a.kind) {
    case ActionKind::Init:
    case ActionKind::Finalize:
    case ActionKind::CommSize:
    case ActionKind::CommSplit: // the TI format carries no communicator ids: collectives stay on MPI_COMM_WORLD
    case ActionKind::CommDup:
    case ActionKind::Location: return Account::None;
    case ActionKind::Compute: rank_.compute(a.amount); return Account::Compute;
    case ActionKind::Sleep: rank_.sleep(a.amount); return Account::Sleep;
    case ActionKind::Send:
      count_message(+1);
      note_sent(rank_.send(comm_, a.dst, a.tag, a.amount));
      return Account::Communicate;
    case ActionKind::Isend: {
      count_message(+1);
      auto request = rank_.isend(comm_, a.dst, a.tag, a.amount);
      note_sent(request->status.message);
      requests_.add({me(), a.dst, a.tag}, std::move(request));
      return Account::Communicate;
    }
    case ActionKind::Recv: {
      count_message(-1);
      auto request = rank_.irecv(comm_, a.src, a.tag, receive_bytes(a));
      request->origin = a.line;
      rank_.wait(*request);
      check_received(*request);
      note_received(*request);
      return Account::Communicate;
    }
    case ActionKind::Irecv: {
      count_message(-1);
      auto request = rank_.irecv(comm_, a.src, a.tag, receive_bytes(a));
      request->origin = a.line;
      requests_.add({a.src, me(), a.tag}, std::move(request));
      return Account::Communicate;
    }
    case ActionKind::SendRecv: send_receive(a); return Account::Communicate;
    case ActionKind::Wait: wait(a); return Account::Wait;
    case ActionKind::Test: test(a); return Account::Wait;
    case ActionKind::WaitAll: wait_all(); return Account::Wait;
    default: collective(a); return Account::Communicate;
    }
  }

  [[gnu::noinline]] void file_access(const TraceAction& a)
  {
    if (not files_)
      files_ = std::make_unique<RankFiles>(shared_.files, rank_, file_);
    files_->perform(a);
  }

  [[gnu::noinline]] void wait_all()
  {
    // The store's own requests, waited on in place (RequestStore.hpp): no block per waitall, none kept per rank.
    const auto pending = requests_.pending();
    rank_.waitall(pending);
    check_received(pending);
    for (const auto& request : pending)
      note_received(*request);
    requests_.clear();
  }

  // Rank::sendrecv's isend + irecv + waitall, spelled out to learn both messages' ids (timeline arrows).
  [[gnu::noinline]] void send_receive(const TraceAction& a)
  {
    const double send_bytes = a.amount;
    const double recv_bytes = a.amount2;
    if (a.dst == me() && a.src == me()) { // a local copy, no message
      rank_.sendrecv(comm_, a.dst, 0, send_bytes, a.src, 0, recv_bytes);
      return;
    }
    mpi::RequestPtr requests[2] = {rank_.isend(comm_, a.dst, 0, send_bytes), rank_.irecv(comm_, a.src, 0, recv_bytes)};
    rank_.waitall(requests);
    note_sent(requests[0]->status.message);
    note_received(*requests[1]);
  }

  // The message the current action sent, for its report (when observed).
  void note_sent(uint64_t message)
  {
    if (notes_)
      notes_->sent = message;
  }

  // The message a completed receive request carried, for the call's report (when observed).
  void note_received(const mpi::Request& request)
  {
    if (notes_ && request.kind() == mpi::RequestKind::Receive && request.status.message != 0)
      notes_->received.push_back(request.status.message);
  }

  // recv with a negative size: SimGrid probes first to learn the size of the incoming message.
  double receive_bytes(const TraceAction& a)
  {
    if (a.amount >= 0)
      return a.amount;
    return rank_.probe(comm_, a.src, a.tag).bytes;
  }

  void wait(const TraceAction& a)
  {
    // No request under this key: the trace's test already completed it (SimGrid returns silently too).
    if (mpi::RequestPtr request = requests_.pop({a.src, a.dst, a.tag})) {
      rank_.wait(*request);
      check_received(*request);
      note_received(*request);
    }
  }

  // MPI forbids receiving a message larger than the receive (MPI_ERR_TRUNCATE); SimGrid aborts too.
  void check_received(const mpi::Request& request) const
  {
    if (request.kind() != mpi::RequestKind::Receive || not request.status.truncated)
      return;
    throw InputError(file_, request.origin,
                     "receive of " + std::to_string(static_cast<long long>(request.bytes())) + " bytes from rank " +
                         std::to_string(request.status.source) + " got a message of " +
                         std::to_string(static_cast<long long>(request.status.bytes)) +
                         " bytes (MPI_ERR_TRUNCATE: the trace's sizes do not match)");
  }
  void check_received(std::span<const mpi::RequestPtr> requests) const
  {
    for (const auto& request : requests)
      check_received(*request);
  }

  [[gnu::noinline]] void test(const TraceAction& a)
  {
    RequestStore::Key key{a.src, a.dst, a.tag};
    mpi::RequestPtr request = requests_.pop(key);
    if (not request)
      return;
    bool done = rank_.test(*request);
    if (done) {
      check_received(*request);
      note_received(*request);
    }
    requests_.add(key, done ? nullptr : request); // a completed one leaves a placeholder for the recorded wait
  }

  // MPI_COMM_WORLD, or the trace's communicator the collective names (OTF2).
  const mpi::Communicator& communicator_of(const TraceAction& a) const
  {
    const int32_t index = details_of(a).communicator;
    return index < 0 ? comm_ : *shared_.trace_communicators[static_cast<size_t>(index)];
  }

  // The reader filled in the whole call (ActionSizes.hpp). The action's details go to the shared calls for the
  // collective's duration (the loop gives them back).
  [[gnu::noinline]] void collective(TraceAction& a)
  {
    shared_call_ = shared_.calls.take(a.details);
    const ActionDetails& details = details_of(a);
    const mpi::CollectiveCall& call = details.call;
    CheckpointCoordinator* checkpoints = restart_ ? restart_->checkpoints : nullptr;
    const bool may_cut = checkpoints != nullptr && synchronizing(a.kind) && details.communicator < 0;
    kernel::Engine& engine = rank_.world().engine();
    if (may_cut)
      checkpoints->enter(restart_->collectives_done, engine.now(), requests_.empty() && not files_,
                         restart_->unmatched);
    shared_.collectives.run(rank_, communicator_of(a), call);
    // As SimGrid: the reduction's cost, given in flops by the trace, is computed locally after the exchange.
    rank_.compute(call.reduce_flops);
    if (may_cut)
      restart_->checkpoint_due = checkpoints->checkpoint_after(restart_->collectives_done++, engine.now());
  }

  mpi::Rank& rank_;
  const mpi::Communicator& comm_;
  ReplayShared& shared_;
  SharedCalls::Entry* shared_call_ = nullptr; // the current collective's call, shared (null: none, or its own)
  std::unique_ptr<RankFiles> files_;          // made by the first MPI-IO action
  RankStream stream_;
  const std::string& file_;
  RankStats& stats_;
  RequestStore requests_;
  // What observers are told about the current action: made only when the run is observed (a few hundred bytes
  // per rank otherwise spent for nothing).
  struct CallNotes {
    uint64_t sent = 0;              // its message
    std::vector<uint64_t> received; // the messages whose receive it completed
    mpi::MessageLog inside;         // its messages inside collective algorithms (its point-to-point: above)
    void clear()
    {
      sent = 0;
      received.clear();
      inside.clear();
    }
  };
  std::unique_ptr<CallNotes> notes_;
  // Checkpoint/restart: made only when the replay checkpoints or restarts, so that a replayer stays small for the
  // largest replays.
  struct RestartState {
    kernel::Actor* actor = nullptr;               // set when it starts: the actor a failure stops
    CheckpointCoordinator* checkpoints = nullptr; // null: no checkpoint (restarts from the start)
    double cost = 0;                              // of writing a checkpoint
    uint64_t position = 0;         // actions of the trace performed (or skipped, resuming from a checkpoint)
    uint64_t resume_after = 0;     // actions to skip at the start
    uint64_t collectives_done = 0; // synchronizing world collectives
    int64_t unmatched = 0;         // point-to-point messages sent minus receives posted, since the last cut
    bool checkpoint_due = false;   // the collective just performed is a checkpoint's cut
  };
  std::unique_ptr<RestartState> restart_;
};

// The failures a deadlock report names: the ranks left waiting may be waiting for them.
std::string failures_text(const std::vector<mpi::FailureAt>& failures)
{
  std::string text;
  for (const mpi::FailureAt& failure : failures)
    text += "\n  rank " + std::to_string(failure.rank) + " failed at simulated time " +
            mpi::failure_date_text(failure.date) + " s (process failure injected by --fail/--fail-mtbf)";
  return text;
}

// One attempt of a replay: the ranks start at `start`, each resuming at its position in the checkpoint `from`.
struct Attempt {
  int number = 1;
  double start = 0;
  CheckpointImage from;
  bool ends_at_failure = false; // restarts remain: the first failure ends the attempt (the job is lost)
};

struct AttemptEnd {
  double failed_at = -1; // >= 0: the date of the failure that ended it
  CheckpointImage last;  // the last complete checkpoint
};

// Ends the attempt at its first failure: every rank stops then. Scheduled after the failures themselves, so that at
// one date the failures come first.
void end_at_first_failure(mpi::Simulation& simulation, std::deque<RankReplayer>& replayers,
                          const std::vector<double>& dates, AttemptEnd& end)
{
  std::vector<double> distinct = dates;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (const double date : distinct) {
    if (date == kernel::kNever)
      continue;
    simulation.engine().schedule_background(date, [&simulation, &replayers, &end] {
      if (end.failed_at >= 0 || simulation.world().failures().empty())
        return; // ended already, or the rank due to fail had finished
      end.failed_at = simulation.engine().now();
      for (const RankReplayer& replayer : replayers)
        replayer.stop(simulation.engine());
    });
  }
}

// An object the process's end frees: never destroyed, so that the millions of blocks of a large replay are not
// freed one by one (and their pages touched again) just before the process exits.
template <class T> void leave_to_process_end(std::unique_ptr<T> object)
{
  static_cast<void>(object.release());
}

// `platform`: read by the first attempt (after the trace is opened, so that a bad trace is reported first), then
// shared by the next ones: it is a description, and each attempt builds its models from it afresh.
AttemptEnd replay_attempt(const ReplayOptions& options, const Attempt& attempt,
                          std::shared_ptr<const platform::Platform>& platform, ReplayResult& result)
{
  // Formats that record time (OTF2) turn computation into flops at each rank's host speed, known once the simulation
  // has placed the ranks: streams are taken after that.
  mpi::Simulation* placed = nullptr;
  TraceFormatOptions format_options = options.format;
  format_options.rank_host_speed = [&placed](int rank) {
    const auto host = placed->world().rank(rank).host();
    return placed->platform().hosts()[static_cast<size_t>(host)].speed;
  };
  // The attempt's largest objects are held by pointer so that a replay whose process ends right after can leave them
  // to the process's end (ReplayOptions::teardown).
  auto traces_owner = std::make_unique<TraceSet>(open_trace(options.trace, options.ranks, format_options));
  TraceSet& traces = *traces_owner;
  const int ranks = traces.size();
  result.ranks.resize(ranks);
  // Declared before the simulation so they outlive it: a failed run unwinds the actors' fibers, which use them. A
  // deque keeps them in place without a pointer and an allocation each.
  auto replayers_owner = std::make_unique<std::deque<RankReplayer>>();
  std::deque<RankReplayer>& replayers = *replayers_owner;
  std::vector<const mpi::Communicator*> trace_communicators; // the trace's own (OTF2), made once for every rank
  std::optional<SharedFiles> shared_files;                   // MPI-IO: the storage model, used by the replayers
  std::optional<ReplayShared> shared;                        // the above with the library and the calls in progress
  std::optional<CheckpointCoordinator> checkpoints;          // --checkpoint-interval
  AttemptEnd end;
  end.last = attempt.from;
  mpi::SimulationOptions simulation_options = options.simulation;
  simulation_options.stacks = options.rank_stacks;
  simulation_options.start_time = attempt.start;
  if (not platform)
    platform = mpi::load_or_generate_platform(options.simulation.platform);
  auto simulation_owner = std::make_unique<mpi::Simulation>(simulation_options, ranks, platform);
  mpi::Simulation& simulation = *simulation_owner;
  // Replay ranks run only mpisim's own code: the ranks a failure stops are unwound with the simulation, releasing
  // what their frames hold, instead of being left on their stacks once per lost attempt.
  simulation.engine().unwind_killed_actors_at_teardown();
  placed = &simulation;
  shared_files.emplace(simulation, ranks);
  for (mpi::Observer* observer : options.observers)
    simulation.world().add_observer(*observer);
  for (models::LinkObserver* observer : options.link_observers)
    simulation.observe_links(*observer);
  for (models::NicObserver* observer : options.nic_observers)
    simulation.observe_nic(*observer);
  // In the trace's order, so that their contexts are deterministic.
  for (size_t i = 0; i < traces.communicators().size(); ++i)
    trace_communicators.push_back(
        &simulation.world().create_communicator("trace communicator " + std::to_string(i), traces.communicators()[i]));
  if (options.checkpoints.checkpointing())
    checkpoints.emplace(ranks, options.checkpoints, attempt.from, attempt.start);
  shared.emplace(simulation.collectives(), trace_communicators, *shared_files);
  for (int rank = 0; rank < ranks; ++rank) {
    replayers.emplace_back(simulation.world().rank(rank), *shared, traces.stream(rank), traces.trace_file(rank),
                           result.ranks[rank]);
    const uint64_t position = attempt.from.positions.empty() ? 0 : attempt.from.positions[static_cast<size_t>(rank)];
    if (checkpoints || attempt.ends_at_failure)
      replayers.back().restart_with(checkpoints ? &*checkpoints : nullptr, options.checkpoints.cost, position,
                                    attempt.from.collectives);
  }
  simulation.world().launch([&replayers](mpi::Rank& rank) { replayers[rank.world_rank()].run(); });
  if (attempt.ends_at_failure)
    end_at_first_failure(simulation, replayers, mpi::failure_dates(simulation_options.failures, ranks, attempt.start),
                         end);
  try {
    simulation.engine().run();
  } catch (const DeadlockError& error) {
    if (simulation.world().failures().empty())
      throw;
    throw DeadlockError(error.what() + failures_text(simulation.world().failures()));
  }
  for (const mpi::FailureAt& failure : simulation.world().failures())
    result.failures.push_back({failure.rank, failure.date, attempt.number});
  if (checkpoints) {
    end.last = checkpoints->committed();
    for (const CheckpointImage& image : checkpoints->completed())
      result.checkpoints.push_back({attempt.number, image.cut, image.committed});
  }
  // The first attempt's fingerprint is the replay's; later ones are folded in.
  result.fingerprint = attempt.number == 1
                           ? simulation.engine().fingerprint()
                           : (result.fingerprint * 0x100000001b3ULL) ^ simulation.engine().fingerprint();
  if (end.failed_at >= 0)
    return end;
  for (const mpi::FailureAt& failure : simulation.world().failures()) {
    result.ranks[failure.rank].failed = true;
    result.ranks[failure.rank].finish = failure.date;
  }
  for (const RankStats& stats : result.ranks)
    result.simulated_time = std::max(result.simulated_time, stats.finish);
  result.model_parameters = simulation.model_parameters();
  result.collective_decisions = simulation.collectives().automatic_decisions();
  if (const models::SwitchingNetworkModel* switcher = simulation.switcher())
    result.time_under_models = switcher->time_under_each(result.simulated_time);
  if (not options.teardown) {
    leave_to_process_end(std::move(simulation_owner));
    leave_to_process_end(std::move(replayers_owner));
    leave_to_process_end(std::move(traces_owner));
  }
  return end;
}

} // namespace

ReplayResult replay(const ReplayOptions& options)
{
  ReplayResult result;
  const CheckpointOptions& checkpointing = options.checkpoints;
  const bool attempts_reported = checkpointing.checkpointing() || checkpointing.restarts > 0;
  Attempt attempt;
  std::shared_ptr<const platform::Platform> platform;
  while (true) {
    attempt.ends_at_failure = attempt.number <= checkpointing.restarts;
    const size_t failures_before = result.failures.size();
    const AttemptEnd end = replay_attempt(options, attempt, platform, result);
    const bool lost = end.failed_at >= 0;
    const bool failed = result.failures.size() > failures_before;
    if (attempts_reported)
      result.attempts.push_back({attempt.number, attempt.start, lost ? end.failed_at : result.simulated_time,
                                 failed ? "process-failure" : "ok", attempt.from.number});
    if (checkpointing.restarts > 0) // timelines mark where each attempt starts, and where each aborted one ends
      for (mpi::Observer* observer : options.observers)
        observer->attempt({attempt.number, attempt.start, lost ? end.failed_at : -1, lost ? "process-failure" : ""});
    if (not lost)
      break;
    // What is done again: from the state restored (reached at the checkpoint's completion, or at the attempt's
    // start if it completed none) to the failure, and the restart.
    const double restored = end.last.number > attempt.from.number ? end.last.committed : attempt.start;
    result.time_lost += end.failed_at + checkpointing.restart_cost - restored;
    attempt.number += 1;
    attempt.start = end.failed_at + checkpointing.restart_cost;
    attempt.from = end.last;
  }
  for (const RankStats& stats : result.ranks)
    result.actions += stats.actions;
  return result;
}

} // namespace mpisim::replay
