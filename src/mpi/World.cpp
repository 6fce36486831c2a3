#include "mpi/World.hpp"

#include "mpi/Rank.hpp"

#include <algorithm>
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

const Communicator& World::create_communicator(std::string name, std::vector<int> world_ranks,
                                               Communicator::Role role)
{
  int context = static_cast<int>(communicators_.size());
  communicators_.push_back(std::make_unique<Communicator>(context, std::move(name), std::move(world_ranks), role));
  return *communicators_.back();
}

const NodeLayout& World::node_layout(const Communicator& comm)
{
  auto& slot = node_layouts_[comm.context()];
  if (slot)
    return *slot;
  auto layout = std::make_unique<NodeLayout>();
  std::map<platform::HostId, int> node_of_host;
  for (int local = 0; local < comm.size(); ++local) {
    auto [it, added] = node_of_host.emplace(host_of(comm.world_rank(local)), static_cast<int>(layout->members.size()));
    if (added)
      layout->members.emplace_back();
    layout->node_of.push_back(it->second);
    layout->members[it->second].push_back(local);
  }
  std::vector<int> leaders;
  for (size_t node = 0; node < layout->members.size(); ++node) {
    const auto& members = layout->members[node];
    layout->uniform = layout->uniform && members.size() == layout->members[0].size();
    layout->ranks_per_node = std::max(layout->ranks_per_node, static_cast<int>(members.size()));
    layout->blocked = layout->blocked && members.back() - members.front() + 1 == static_cast<int>(members.size());
    std::vector<int> world_ranks;
    for (int local : members)
      world_ranks.push_back(comm.world_rank(local));
    leaders.push_back(comm.world_rank(members[0]));
    layout->intra.push_back(
        &create_communicator(comm.name() + " node " + std::to_string(node), std::move(world_ranks),
                             Communicator::Role::Node));
  }
  layout->leaders = &create_communicator(comm.name() + " leaders", std::move(leaders), Communicator::Role::Leaders);
  slot = std::move(layout);
  return *slot;
}

void World::launch(const std::function<void(Rank&)>& main)
{
  for (int rank = 0; rank < size(); ++rank) {
    Rank* self = ranks_[rank].get();
    kernel::Actor& actor = engine_.spawn("rank " + std::to_string(rank), [self, main] { main(*self); });
    actor.set_memory_context(rank); // a rank's private memory, if the front end has any, is named by its world rank
  }
}

} // namespace mpisim::mpi
