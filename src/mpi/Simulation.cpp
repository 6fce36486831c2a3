#include "mpi/Simulation.hpp"

#include "mpi/Rank.hpp"

#include "common/Errors.hpp"
#include "kernel/Actor.hpp"

#include <filesystem>

namespace mpisim::mpi {

std::unique_ptr<platform::Platform> load_or_generate_platform(const std::string& text)
{
  if (text.empty())
    throw InputError("no platform given (use --platform FILE.xml or a spec such as cluster:16)");
  if (std::filesystem::exists(text))
    return platform::load_platform(text);
  if (text.find(':') != std::string::npos && text.find('/') == std::string::npos)
    return platform::generate_platform(text);
  throw InputError(text, 0, "cannot open the platform file");
}

Simulation::Simulation(const SimulationOptions& options, int ranks)
    : Simulation(options, ranks, load_or_generate_platform(options.platform))
{
}

Simulation::Simulation(const SimulationOptions& options, int ranks, std::shared_ptr<const platform::Platform> platform)
    : platform_(std::move(platform)), engine_(std::make_unique<kernel::Engine>())
{
  if (ranks < 1)
    throw InputError("the number of ranks must be at least 1 (got " + std::to_string(ranks) + ")");
  kernel::check_stack_capacity(ranks, options.stack_size); // before anything per rank is made
  engine_->set_stack_size(options.stack_size);

  const models::NetworkModelEntry& model = models::NetworkModelRegistry::find(options.model);
  model_name_ = model.name;
  parameters_ = std::make_unique<models::Parameters>(model.parameters);
  for (const auto& [name, value] : platform_->config())
    parameters_->set(name, value, "platform <config>", /*ignore_unknown=*/true);
  if (not options.model_parameter_file.empty())
    parameters_->load_file(options.model_parameter_file);
  for (const auto& [name, value] : options.model_parameters)
    parameters_->set(name, value, "--param " + name);
  parameter_values_ = parameters_->as_text();
  network_ = model.factory(models::NetworkModelContext{*engine_, *platform_, *parameters_});

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
