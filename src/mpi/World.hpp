// The simulated MPI job: its ranks, where they run, the models that time them, and the matching state.
#pragma once

#include "kernel/Engine.hpp"
#include "models/NetworkModel.hpp"
#include "mpi/Communicator.hpp"
#include "mpi/Failures.hpp"
#include "mpi/Mailbox.hpp"
#include "mpi/Observer.hpp"
#include "mpi/OverflowList.hpp"
#include "mpi/Polling.hpp"
#include "mpi/Scheduling.hpp"
#include "resources/ComputeResources.hpp"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace mpisim::mpi {

class Rank;
class Message;
class Request;

// Where the ranks of a communicator run, grouped by host, for SMP-aware (hierarchical) collectives: nodes are
// numbered by their lowest rank; each node's ranks and the nodes' leaders (lowest rank of each) form communicators.
class World;

struct NodeLayout {
  std::vector<int> node_of;              // local rank -> node
  std::vector<std::vector<int>> members; // node -> its local ranks, ascending
  bool uniform = true;                   // every node has the same number of ranks
  int ranks_per_node = 1;                // the most ranks on one node
  bool blocked = true;                   // each node's ranks are consecutive
  // Set once a collective algorithm (or a selector step that does so in SimGrid) has asked for the layout: SimGrid
  // computes a communicator's node information lazily (Comm::init_smp), and MVAPICH2's gather rule reads the
  // "blocked" flag without computing it, so it sees "not blocked" until an earlier collective did.
  mutable bool computed_by_collective = false;
  // The hierarchy's communicators, made on first use: only SMP-aware algorithms need them, and a communicator of N
  // single-rank nodes would otherwise cost N + 1 communicators.
  const Communicator& intra(size_t node) const; // the ranks of a node
  const Communicator& leaders() const;          // one rank per node (its lowest), in node order

private:
  friend class World;
  World* world_ = nullptr;
  const Communicator* comm_ = nullptr;
  mutable std::vector<const Communicator*> intra_;
  mutable const Communicator* leaders_ = nullptr;
};

struct WorldSettings {
  PollingSettings polling; // what MPI_Test, MPI_Iprobe and their kin cost (Polling.hpp)
  Scheduling scheduling = Scheduling::RunToBlock;
};

class World {
public:
  World(kernel::Engine& engine, const platform::Platform& platform, models::NetworkModel& network,
        std::vector<platform::HostId> rank_hosts, WorldSettings settings = {});
  ~World();

  kernel::Engine& engine() { return engine_; }
  const platform::Platform& platform() const { return platform_; }
  models::NetworkModel& network() { return *network_; }
  // A switcher taking over the run's model (mpi::Simulation::models): the messages posted from then on go to it.
  void set_network(models::NetworkModel& network) { network_ = &network; }
  resources::ComputeResources& cpu() { return cpu_; }
  const WorldSettings& settings() const { return settings_; }
  void set_polling(const PollingSettings& polling) { settings_.polling = polling; }
  void set_scheduling(Scheduling scheduling) { settings_.scheduling = scheduling; }
  // SimGrid's polling multipliers, shared by every rank as in SimGrid (--polling smpi).
  SmpiPollCounters& smpi_poll_counters() { return smpi_poll_counters_; }
  // A rank ended a polling streak (it polled successfully or did something else): the run moves on.
  void note_polling_progress() { ++polling_progress_; }

  int size() const { return static_cast<int>(rank_hosts_.size()); }
  platform::HostId host_of(int world_rank) const { return rank_hosts_[world_rank]; }
  const Communicator& comm_world() const { return *comm_world_; }
  Mailbox& mailbox(int world_rank) { return mailboxes_[world_rank]; }
  // The receiver's overflow list when the network model bounds the room of unexpected messages (bxi), else null.
  OverflowList* overflow_list(int world_rank);
  Rank& rank(int world_rank) { return *ranks_[world_rank]; }

  // Creates a communicator; contexts are allocated in creation order (deterministic).
  const Communicator& create_communicator(std::string name, std::vector<int> world_ranks,
                                          Communicator::Role role = Communicator::Role::Ordinary);

  // The two sides of an intercommunicator between two disjoint groups (world ranks), sharing a new context: the
  // first side's own group is `first`.
  std::pair<const Communicator*, const Communicator*>
  create_intercommunicator(const std::string& name, std::vector<int> first, std::vector<int> second);

  // Computed on first use for a communicator and kept (every rank sees the same sub-communicators).
  const NodeLayout& node_layout(const Communicator& comm);

  // Starts one actor per rank, named "rank N", each running main(rank).
  void launch(const std::function<void(Rank&)>& main);
  // Whether the actor running now is `world_rank`'s own (not one of its helpers, mpi::Rank::spawn_helper).
  bool rank_actor_running(int world_rank) const
  {
    return engine_.running() == rank_actors_[static_cast<size_t>(world_rank)];
  }

  // Process failures (mpi/Failures.hpp). Each rank fails at its date (kernel::kNever: never), if it is still running
  // then; with `detect`, operations involving a failed rank complete with an error (online), else they never do
  // (replay).
  void schedule_failures(const std::vector<double>& dates, bool detect);
  bool failures_possible() const { return not failed_at_.empty(); }
  bool detects_failures() const { return detect_failures_; }
  // kernel::kNever while the rank runs.
  double failed_at(int world_rank) const
  {
    return failed_at_.empty() ? kernel::kNever : failed_at_[static_cast<size_t>(world_rank)];
  }
  bool has_failed(int world_rank) const { return failed_at(world_rank) != kernel::kNever; }
  // The failures so far, in the order they happened.
  const std::vector<FailureAt>& failures() const { return failures_; }
  // Kills a rank now (its scheduled failure; also callable directly).
  void fail_rank(int world_rank);
  // The first of `comm`'s peers (its members; an intercommunicator's remote group) that has failed, -1 if none;
  // `unacknowledged_by`: only failures that rank has not acknowledged on `comm` (MPI_ANY_SOURCE receives, ULFM).
  int failed_member(const Communicator& comm, int unacknowledged_by = -1) const;
  // The members of `comm` still running, in rank order (world ranks).
  std::vector<int> survivors(const Communicator& comm) const;
  // MPIX_Comm_failure_ack / _get_acked: the failed members `rank` has acknowledged on `comm` (world ranks).
  void acknowledge_failures(int rank, const Communicator& comm);
  const std::vector<int>& acknowledged_failures(int rank, const Communicator& comm) const;
  // Revocation (MPIX_Comm_revoke): `rank` revokes `comm` and floods a notice to every other member (a small
  // network transfer each); a member knows it once its notice arrives, and from then on its operations on `comm`
  // fail with FailureKind::Revoked.
  void revoke(int rank, const Communicator& comm);
  bool knows_revoked(int rank, const Communicator& comm) const;
  // Throws ProcessFailure when `rank` may not start an operation on `comm` now: `comm` is revoked as far as `rank`
  // knows, or (`collective`) one of its members has failed.
  void check_operation(int rank, const Communicator& comm, bool collective) const;
  // Completes `request` with the error of `kind` involving `failed` (a world rank, -1: none).
  void fail_request(Request& request, FailureKind kind, int failed);
  // The exception an operation that completed with a failure raises in its owner.
  ProcessFailure failure_of(const Request& request) const;
  // The communicator of `comm`'s members still running (ULFM's agreement and shrink run on it), the same object for
  // every survivor: made by the first to ask for this set of survivors.
  const Communicator& survivors_communicator(const Communicator& comm);
  // Fault-tolerant agreement (MPIX_Comm_agree) on `survivors`: `rank` adds its flag to its next agreement there and
  // gets that agreement's number; once the agreement's messages have gone round, agreement_value() is the AND of
  // every survivor's flag.
  uint64_t contribute_to_agreement(int rank, const Communicator& survivors, int flag);
  int agreement_value(const Communicator& survivors, uint64_t agreement) const;
  // Messages sent while failures are possible or detected: a failure drops those of the failed rank still in flight,
  // a revocation fails the sends still pending on the communicator.
  // Inline: every send asks, and without failures (nearly every run) there is nothing to do.
  void track(const std::shared_ptr<Message>& message)
  {
    if (failures_possible() || detect_failures_)
      keep_track_of(message);
  }

  // Observers (not owned) are told about calls and messages; with none, nothing is recorded.
  void add_observer(Observer& observer) { observers_.push_back(&observer); }
  bool observed() const { return not observers_.empty(); }
  // Message ids, unique in the run, from 1 in posting order: how observers tell messages apart.
  uint64_t next_message_id() { return ++last_message_id_; }
  void report(const CallRecord& record) const
  {
    for (Observer* observer : observers_)
      observer->call(record);
  }
  void report(const MessageRecord& record) const
  {
    for (Observer* observer : observers_)
      observer->message(record);
  }
  void report(const FailureRecord& record) const
  {
    for (Observer* observer : observers_)
      observer->failure(record);
  }

private:
  kernel::Engine& engine_;
  const platform::Platform& platform_;
  models::NetworkModel* network_;
  resources::ComputeResources cpu_;
  std::vector<platform::HostId> rank_hosts_;
  WorldSettings settings_;
  std::vector<std::unique_ptr<Communicator>> communicators_;
  std::map<int, std::unique_ptr<NodeLayout>> node_layouts_; // by communicator context
  const Communicator* comm_world_;
  std::vector<Mailbox> mailboxes_;
  std::vector<OverflowList> overflow_lists_; // by world rank, made at the first unexpected message (bxi)
  bool overflow_asked_ = false;
  std::vector<std::unique_ptr<Rank>> ranks_;
  std::vector<std::unique_ptr<std::function<void(Rank&)>>> mains_; // what launch() runs
  std::vector<Observer*> observers_;
  uint64_t last_message_id_ = 0;
  SmpiPollCounters smpi_poll_counters_;
  uint64_t polling_progress_ = 0;
  uint64_t progress_at_release_ = ~0ULL;
  std::vector<kernel::Actor*> rank_actors_; // by world rank (launch)
  // Failures: by world rank, the date each failed (empty: no failure possible).
  std::vector<double> failed_at_;
  std::vector<FailureAt> failures_;
  bool detect_failures_ = false;
  void keep_track_of(const std::shared_ptr<Message>& message);
  std::vector<std::weak_ptr<Message>> tracked_;
  size_t tracked_after_pruning_ = 0;
  std::map<std::pair<int, int>, std::vector<int>> acknowledged_; // (rank, context) -> failed world ranks
  std::map<int, std::vector<bool>> revoked_known_;               // context -> by world rank
  std::map<std::pair<int, std::vector<int>>, const Communicator*> survivor_comms_; // (context, survivors)
  std::map<std::pair<int, int>, uint64_t> agreements_made_;                        // (rank, context) -> count
  std::map<std::pair<int, uint64_t>, int> agreement_values_;                       // (context, number) -> AND
  class RevokeNotice;
  std::vector<std::shared_ptr<RevokeNotice>> notices_;
  void learn_revoked(int rank, const Communicator& comm);

  // The engine's stall handler: lets the ranks fast-forwarded through polling loops poll on, unless the previous
  // release led nowhere (then every rank is waiting for good: a deadlock).
  bool release_fast_forwarded_polls();
};

} // namespace mpisim::mpi
