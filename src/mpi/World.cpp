#include "mpi/World.hpp"

#include "mpi/Rank.hpp"

#include <numeric>

namespace mpisim::mpi {

namespace {
std::vector<resources::CpuSpec> cpu_specs(const platform::Platform& platform)
{
  std::vector<resources::CpuSpec> specs;
  specs.reserve(platform.hosts().size());
  for (const platform::HostSpec& host : platform.hosts())
    specs.push_back({host.speed, host.cores});
  return specs;
}
} // namespace

World::World(kernel::Engine& engine, const platform::Platform& platform, models::NetworkModel& network,
             std::vector<platform::HostId> rank_hosts, WorldSettings settings)
    : engine_(engine), platform_(platform), network_(network), cpu_(engine, cpu_specs(platform)),
      rank_hosts_(std::move(rank_hosts)), settings_(settings), mailboxes_(rank_hosts_.size())
{
  std::vector<int> everyone(rank_hosts_.size());
  std::iota(everyone.begin(), everyone.end(), 0);
  comm_world_ = &create_communicator("MPI_COMM_WORLD", std::move(everyone));
  for (int rank = 0; rank < size(); ++rank)
    ranks_.push_back(std::make_unique<Rank>(*this, rank));
}

World::~World() = default;

const Communicator& World::create_communicator(std::string name, std::vector<int> world_ranks)
{
  int context = static_cast<int>(communicators_.size());
  communicators_.push_back(std::make_unique<Communicator>(context, std::move(name), std::move(world_ranks)));
  return *communicators_.back();
}

void World::launch(const std::function<void(Rank&)>& main)
{
  for (int rank = 0; rank < size(); ++rank) {
    Rank* self = ranks_[rank].get();
    engine_.spawn("rank " + std::to_string(rank), [self, main] { main(*self); });
  }
}

} // namespace mpisim::mpi
