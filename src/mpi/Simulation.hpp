// Everything a simulated MPI job needs, built from user options: the platform, the engine, the network model with its
// parameters (defaults, then the platform's <config>, then a parameter file, then --param values), the rank placement,
// the MPI world and the collective library. Replay and online mode both start here.
#pragma once

#include "models/NetworkModel.hpp"
#include "models/SwitchingNetworkModel.hpp"
#include "mpi/Placement.hpp"
#include "mpi/World.hpp"
#include "mpi/collectives/Collectives.hpp"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::mpi {

// Where the ranks' stacks come from (kernel/Stacks.hpp): a guarded mapping of `stack_size` bytes each, for ranks
// running user code, which may overflow (online mode); or slices of one arena, of rank_arena_stack_bytes() each, for
// ranks running only mpisim's own code, of bounded depth (replay, collective studies); or one shared stack with
// copy-on-switch, for ranks whose suspended frames nothing points into (replay: kernel/Stacks.hpp SharedStack).
enum class RankStacks : uint8_t { Guarded, Arena, Shared };

// The one stack replay ranks share: deep enough for any of them (the arena's slice with room to spare); only the
// pages the deepest rank touches cost memory.
inline constexpr size_t kSharedRankStackBytes = size_t{1} << 20;

// The stack of a rank on the arena: the deepest path of replay (StackDepth test in tests/cpp) with a margin.
size_t rank_arena_stack_bytes();

struct SimulationOptions {
  std::string platform; // XML file, or a generator spec such as "torus:4x4x4,bw=10Gbps"
  std::string model = "smpi";
  std::string model_parameter_file;                                  // "name = value" lines
  std::vector<std::pair<std::string, std::string>> model_parameters; // --param name=value
  // Other models the run switches to (--pcontrol-models, --switch): made at the start, so that a wrong name is bad
  // input; each --param then needs to be known by one of the run's models. mpisim_use_model may name any model.
  std::vector<std::string> switch_models;
  // --switch size<4KiB=bxi,time<1.5s=bxi: automatic switches, by message size or by the date a send is posted.
  std::vector<models::SwitchRule> switch_rules;
  std::string hostfile;
  std::vector<platform::HostId> rank_hosts; // explicit placement (rank i on rank_hosts[i]), before hostfile/order
  PlacementOrder placement = PlacementOrder::Platform;
  std::string collective_selector = "default";
  std::map<std::string, std::string> collective_algorithms; // operation -> algorithm
  size_t stack_size = size_t{256} * 1024;                   // RankStacks::Guarded
  RankStacks stacks = RankStacks::Guarded;
  FailureOptions failures; // --fail, --fail-mtbf, --seed
  // Online runs detect failures (operations involving a failed rank raise an MPI error); replay does not (they
  // never complete). The clock starts at `start_time` (a restarted attempt), and only failures from then on apply.
  bool detect_failures = false;
  double start_time = 0;
};

// Loads a platform file, or builds one from a generator spec when `text` is not an existing file.
std::unique_ptr<platform::Platform> load_or_generate_platform(const std::string& text);

class Simulation {
public:
  Simulation(const SimulationOptions& options, int ranks);
  // On an already loaded platform (studies that run many simulations on one platform); options.platform is unused.
  Simulation(const SimulationOptions& options, int ranks, std::shared_ptr<const platform::Platform> platform);
  ~Simulation();

  kernel::Engine& engine() { return *engine_; }
  const platform::Platform& platform() const { return *platform_; }
  World& world() { return *world_; }
  // The network model moving the job's messages (the storage model sends its requests and data through it too).
  models::NetworkModel& network() { return *network_; }
  // The same, as the set of models the run may switch between (mpisim_use_model, MPI_Pcontrol). A run built without
  // switching (no --pcontrol-models, no --switch) gets its switcher here, at its first switch: until then its
  // messages go straight to their model, with no switcher in between.
  models::SwitchingNetworkModel& models();
  // The switcher if the run has one (it may switch), else null.
  const models::SwitchingNetworkModel* switcher() const { return switcher_; }
  // Link observers of the network (--timeline-links), kept for the models a switch makes later.
  void observe_links(models::LinkObserver& observer);
  // NIC observers (--timeline NIC tracks, --portals-csv): the network's models, and the Portals runtime's NIC model
  // (which asks for them).
  void observe_nic(models::NicObserver& observer);
  const std::vector<models::NicObserver*>& nic_observers() const { return nic_observers_; }
  const CollectiveLibrary& collectives() const { return *collectives_; }
  // The network model's registered name ("smpi", "fluid", ...): online runs mimic SMPI's internal messages under
  // "smpi".
  const std::string& model_name() const { return model_name_; }
  // Parameter name -> value actually used, for provenance in results.
  const std::map<std::string, std::string>& model_parameters() const { return parameter_values_; }
  // The typed parameters of the network model (models built above the MPI layer read theirs: the BXI NIC).
  const models::Parameters& parameters() const { return *parameters_; }

private:
  // The automatic selector's trial: one collective call, alone, on the hosts of `comm`.
  std::unique_ptr<models::NetworkModel> make_model(const SimulationOptions& options, const std::string& name);
  double time_alone(const SimulationOptions& options, const std::string& algorithm, const Communicator& comm,
                    const CollectiveCall& call) const;

  std::shared_ptr<const platform::Platform> platform_;
  std::unique_ptr<kernel::Engine> engine_;
  // Each model's parameters, by model name (the first model's is parameters_).
  std::map<std::string, std::unique_ptr<models::Parameters>> parameters_by_model_;
  const models::Parameters* parameters_ = nullptr;
  std::unique_ptr<models::NetworkModel> network_; // the run's model, or the switcher holding the run's models
  models::SwitchingNetworkModel* switcher_ = nullptr;
  models::SwitchingNetworkModel::Factory make_named_model_;
  std::string first_model_name_; // as --model gave it (mpisim_use_model compares names as given)
  double first_model_since_ = 0;
  std::vector<models::LinkObserver*> link_observers_;
  std::vector<models::NicObserver*> nic_observers_;
  std::unique_ptr<World> world_;
  std::unique_ptr<CollectiveLibrary> collectives_;
  std::map<std::string, std::string> parameter_values_;
  std::set<std::string> known_parameters_; // --param names some model of the run took
  std::string model_name_;
};

} // namespace mpisim::mpi
