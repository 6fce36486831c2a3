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
  engine_.set_stall_handler([this] { return release_fast_forwarded_polls(); });
}

bool World::release_fast_forwarded_polls()
{
  if (polling_progress_ == progress_at_release_)
    return false;
  bool released = false;
  for (const std::unique_ptr<Rank>& rank : ranks_) // in rank order: deterministic
    released = rank->release_fast_forward() || released;
  if (released)
    progress_at_release_ = polling_progress_;
  return released;
}

World::~World() = default;

const Communicator& World::create_communicator(std::string name, std::vector<int> world_ranks, Communicator::Role role)
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
  layout->world_ = this;
  layout->comm_ = &comm;
  std::map<platform::HostId, int> node_of_host;
  for (int local = 0; local < comm.size(); ++local) {
    auto [it, added] = node_of_host.emplace(host_of(comm.world_rank(local)), static_cast<int>(layout->members.size()));
    if (added)
      layout->members.emplace_back();
    layout->node_of.push_back(it->second);
    layout->members[it->second].push_back(local);
  }
  for (const auto& members : layout->members) {
    layout->uniform = layout->uniform && members.size() == layout->members[0].size();
    layout->ranks_per_node = std::max(layout->ranks_per_node, static_cast<int>(members.size()));
    layout->blocked = layout->blocked && members.back() - members.front() + 1 == static_cast<int>(members.size());
  }
  layout->intra_.assign(layout->members.size(), nullptr);
  slot = std::move(layout);
  return *slot;
}

const Communicator& NodeLayout::intra(size_t node) const
{
  if (intra_[node] == nullptr) {
    std::vector<int> world_ranks;
    for (int local : members[node])
      world_ranks.push_back(comm_->world_rank(local));
    intra_[node] = &world_->create_communicator(comm_->name() + " node " + std::to_string(node), std::move(world_ranks),
                                                Communicator::Role::Node);
  }
  return *intra_[node];
}

const Communicator& NodeLayout::leaders() const
{
  if (leaders_ == nullptr) {
    std::vector<int> world_ranks;
    for (const auto& node : members)
      world_ranks.push_back(comm_->world_rank(node[0]));
    leaders_ =
        &world_->create_communicator(comm_->name() + " leaders", std::move(world_ranks), Communicator::Role::Leaders);
  }
  return *leaders_;
}

void World::launch(const std::function<void(Rank&)>& main)
{
  // One copy of `main` for all ranks: each actor's body then fits in std::function's inline storage (no allocation
  // per rank).
  mains_.push_back(std::make_unique<std::function<void(Rank&)>>(main));
  const std::function<void(Rank&)>* body = mains_.back().get();
  for (int rank = 0; rank < size(); ++rank) {
    Rank* self = ranks_[rank].get();
    kernel::Actor& actor = engine_.spawn("rank " + std::to_string(rank), [self, body] { (*body)(*self); });
    actor.set_memory_context(rank); // a rank's private memory, if the front end has any, is named by its world rank
  }
}

} // namespace mpisim::mpi
