#include "mpi/Simulation.hpp"

#include "mpi/Rank.hpp"

#include "common/Errors.hpp"
#include "kernel/Stacks.hpp"

#include <filesystem>
#include <fstream>

namespace mpisim::mpi {

namespace {
// A spec file (NAME.spec): the one-line spec, '#' comments and blank lines aside.
std::string read_spec_file(const std::string& path)
{
  std::ifstream file(path);
  std::string line;
  std::string spec;
  while (std::getline(file, line)) {
    line = line.substr(0, line.find('#'));
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos)
      continue;
    if (not spec.empty())
      throw InputError(path, 0, "a spec file holds one spec line");
    spec = line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
  }
  if (spec.empty())
    throw InputError(path, 0, "no platform spec in the file");
  return spec;
}
} // namespace

std::unique_ptr<platform::Platform> load_or_generate_platform(const std::string& text)
{
  if (text.empty())
    throw InputError("no platform given (use --platform FILE.xml or a spec such as cluster:16)");
  if (std::filesystem::exists(text) && text.ends_with(".spec")) {
    const std::string spec = read_spec_file(text);
    try {
      return platform::generate_platform(spec);
    } catch (const InputError& error) {
      throw InputError(text, 0, error.message());
    }
  }
  if (std::filesystem::exists(text))
    return platform::load_platform(text);
  // A spec names its kind before any '/' (hierarchy: specs separate their levels' values with '/').
  const size_t colon = text.find(':');
  if (colon != std::string::npos && text.find('/') > colon)
    return platform::generate_platform(text);
  throw InputError(text, 0, "cannot open the platform file");
}

// Replay's deepest stack use is about 7 KiB (tests/cpp/replay_stack_depth_test.cpp: every collective algorithm and
// selector, model and timeline writer); a rank that is the first to call a library function also pays the dynamic
// linker's lazy binding, which saves the vector registers on its stack (3 KiB with AVX-512, more with larger register
// files). 32 KiB leaves a margin of 4x. Unoptimized and sanitized builds take several times more stack per frame.
size_t rank_arena_stack_bytes()
{
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
  return size_t{32} * 1024;
#else
  return size_t{128} * 1024;
#endif
}

namespace {

std::unique_ptr<kernel::StackProvider> stack_provider(const SimulationOptions& options)
{
  switch (options.stacks) {
  case RankStacks::Arena: return std::make_unique<kernel::StackArena>(rank_arena_stack_bytes());
  case RankStacks::Shared: return std::make_unique<kernel::SharedStack>(kSharedRankStackBytes);
  case RankStacks::Guarded: break;
  }
  return std::make_unique<kernel::GuardedStacks>(options.stack_size);
}

} // namespace

Simulation::Simulation(const SimulationOptions& options, int ranks)
    : Simulation(options, ranks, load_or_generate_platform(options.platform))
{
}

Simulation::Simulation(const SimulationOptions& options, int ranks, std::shared_ptr<const platform::Platform> platform)
    : platform_(std::move(platform)), engine_(std::make_unique<kernel::Engine>())
{
  if (ranks < 1)
    throw InputError("the number of ranks must be at least 1 (got " + std::to_string(ranks) + ")");
  engine_->set_stack_provider(stack_provider(options));
  engine_->stacks().check_capacity(ranks); // before anything per rank is made

  make_named_model_ = [this, options](const std::string& name) { return make_model(options, name); };
  first_model_name_ = options.model;
  first_model_since_ = engine_->now();
  if (options.switch_models.empty() && options.switch_rules.empty()) { // cannot switch unless the program asks
    network_ = make_named_model_(options.model);
  } else {
    auto switcher = std::make_unique<models::SwitchingNetworkModel>(*engine_, make_named_model_, options.model);
    switcher_ = switcher.get();
    network_ = std::move(switcher);
  }
  model_name_ = models::NetworkModelRegistry::find(options.model).name;
  parameters_ = parameters_by_model_.at(model_name_).get();
  parameter_values_ = parameters_->as_text();
  for (const std::string& name : options.switch_models)
    switcher_->prepare(name);
  for (const models::SwitchRule& rule : options.switch_rules)
    switcher_->add_rule(rule);
  for (const auto& [name, value] : options.model_parameters)
    if (not known_parameters_.contains(name))
      throw InputError("--param " + name + ": no parameter of that name in the run's models");

  std::vector<platform::HostId> hosts = not options.rank_hosts.empty() ? options.rank_hosts
                                        : options.hostfile.empty()
                                            ? place_ranks(*platform_, ranks, options.placement)
                                            : place_ranks_from_hostfile(*platform_, ranks, options.hostfile);
  if (static_cast<int>(hosts.size()) != ranks)
    throw InputError("placement gives " + std::to_string(hosts.size()) + " hosts for " + std::to_string(ranks) +
                     " ranks");
  world_ = std::make_unique<World>(*engine_, *platform_, *network_, std::move(hosts));
  engine_->start_clock_at(options.start_time);
  world_->schedule_failures(failure_dates(options.failures, ranks, options.start_time), options.detect_failures);
  // The trial lets a selector time algorithms (automatic); the others ignore it.
  collectives_ = std::make_unique<CollectiveLibrary>(
      options.collective_selector, options.collective_algorithms,
      [this, options](const std::string& algorithm, const Communicator& comm, const CollectiveCall& call) {
        return time_alone(options, algorithm, comm, call);
      });
}

models::SwitchingNetworkModel& Simulation::models()
{
  if (switcher_ == nullptr) {
    auto switcher = std::make_unique<models::SwitchingNetworkModel>(*engine_, make_named_model_, first_model_name_,
                                                                    std::move(network_), first_model_since_,
                                                                    link_observers_, nic_observers_);
    switcher_ = switcher.get();
    network_ = std::move(switcher);
    world_->set_network(*network_);
  }
  return *switcher_;
}

void Simulation::observe_nic(models::NicObserver& observer)
{
  nic_observers_.push_back(&observer);
  network_->observe_nic(observer);
}

void Simulation::observe_links(models::LinkObserver& observer)
{
  link_observers_.push_back(&observer);
  network_->observe_links(observer);
}

// The first model's parameters are checked strictly when it is the only one; under switching a --param needs only to
// be known by one of the run's models. The parameter file is the first model's.
std::unique_ptr<models::NetworkModel> Simulation::make_model(const SimulationOptions& options, const std::string& name)
{
  const models::NetworkModelEntry& model = models::NetworkModelRegistry::find(name);
  const bool first = parameters_by_model_.empty();
  const bool strict = first && options.switch_models.empty();
  auto parameters = std::make_unique<models::Parameters>(model.parameters);
  for (const auto& [key, value] : platform_->config())
    parameters->set(key, value, "platform <config>", /*ignore_unknown=*/true);
  if (first && not options.model_parameter_file.empty())
    parameters->load_file(options.model_parameter_file);
  for (const auto& [key, value] : options.model_parameters)
    if (parameters->set(key, value, "--param " + key, not strict))
      known_parameters_.insert(key);
  auto made = model.factory(models::NetworkModelContext{*engine_, *platform_, *parameters});
  parameters_by_model_[model.name] = std::move(parameters);
  return made;
}

double Simulation::time_alone(const SimulationOptions& options, const std::string& algorithm, const Communicator& comm,
                              const CollectiveCall& call) const
{
  SimulationOptions trial = options;
  trial.collective_selector = "default";
  trial.collective_algorithms = {{collective_name(call.op), algorithm}};
  trial.rank_hosts.clear();
  trial.failures = {};
  trial.start_time = 0;
  for (int local = 0; local < comm.size(); ++local)
    trial.rank_hosts.push_back(world_->host_of(comm.world_rank(local)));
  Simulation simulation(trial, comm.size(), platform_);
  double last = 0;
  simulation.world().launch([&](Rank& rank) {
    simulation.collectives().run(rank, rank.world().comm_world(), call);
    last = std::max(last, rank.world().engine().now());
  });
  simulation.engine().run();
  return last;
}

// The engine goes last: suspended actors are unwound while the world they reference still exists.
Simulation::~Simulation()
{
  engine_.reset();
}

} // namespace mpisim::mpi
