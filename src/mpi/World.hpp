// The simulated MPI job: its ranks, where they run, the models that time them, and the matching state.
#pragma once

#include "kernel/Engine.hpp"
#include "models/NetworkModel.hpp"
#include "mpi/Communicator.hpp"
#include "mpi/Mailbox.hpp"
#include "mpi/Observer.hpp"
#include "mpi/Polling.hpp"
#include "resources/ComputeResources.hpp"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace mpisim::mpi {

class Rank;

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
};

class World {
public:
  World(kernel::Engine& engine, const platform::Platform& platform, models::NetworkModel& network,
        std::vector<platform::HostId> rank_hosts, WorldSettings settings = {});
  ~World();

  kernel::Engine& engine() { return engine_; }
  const platform::Platform& platform() const { return platform_; }
  models::NetworkModel& network() { return network_; }
  resources::ComputeResources& cpu() { return cpu_; }
  const WorldSettings& settings() const { return settings_; }
  void set_polling(const PollingSettings& polling) { settings_.polling = polling; }
  // SimGrid's polling multipliers, shared by every rank as in SimGrid (--polling smpi).
  SmpiPollCounters& smpi_poll_counters() { return smpi_poll_counters_; }
  // A rank ended a polling streak (it polled successfully or did something else): the run moves on.
  void note_polling_progress() { ++polling_progress_; }

  int size() const { return static_cast<int>(rank_hosts_.size()); }
  platform::HostId host_of(int world_rank) const { return rank_hosts_[world_rank]; }
  const Communicator& comm_world() const { return *comm_world_; }
  Mailbox& mailbox(int world_rank) { return mailboxes_[world_rank]; }
  Rank& rank(int world_rank) { return *ranks_[world_rank]; }

  // Creates a communicator; contexts are allocated in creation order (deterministic).
  const Communicator& create_communicator(std::string name, std::vector<int> world_ranks,
                                          Communicator::Role role = Communicator::Role::Ordinary);

  // Computed on first use for a communicator and kept (every rank sees the same sub-communicators).
  const NodeLayout& node_layout(const Communicator& comm);

  // Starts one actor per rank, named "rank N", each running main(rank).
  void launch(const std::function<void(Rank&)>& main);

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

private:
  kernel::Engine& engine_;
  const platform::Platform& platform_;
  models::NetworkModel& network_;
  resources::ComputeResources cpu_;
  std::vector<platform::HostId> rank_hosts_;
  WorldSettings settings_;
  std::vector<std::unique_ptr<Communicator>> communicators_;
  std::map<int, std::unique_ptr<NodeLayout>> node_layouts_; // by communicator context
  const Communicator* comm_world_;
  std::vector<Mailbox> mailboxes_;
  std::vector<std::unique_ptr<Rank>> ranks_;
  std::vector<std::unique_ptr<std::function<void(Rank&)>>> mains_; // what launch() runs
  std::vector<Observer*> observers_;
  uint64_t last_message_id_ = 0;
  SmpiPollCounters smpi_poll_counters_;
  uint64_t polling_progress_ = 0;
  uint64_t progress_at_release_ = ~0ULL;

  // The engine's stall handler: lets the ranks fast-forwarded through polling loops poll on, unless the previous
  // release led nowhere (then every rank is waiting for good: a deadlock).
  bool release_fast_forwarded_polls();
};

} // namespace mpisim::mpi
