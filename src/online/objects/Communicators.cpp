#include "online/objects/Communicators.hpp"

#include <string>

namespace mpisim::online {

Communicators::Communicators(mpi::World& world)
    : world_(world), table_({MPI_ERR_COMM, "communicator"}, MPI_COMM_SELF + 1),
      self_comms_(static_cast<size_t>(world.size()), nullptr), views_(static_cast<size_t>(world.size()))
{
  table_.insert_predefined(MPI_COMM_WORLD, &world.comm_world());
  handles_by_context_[world.comm_world().context()] = MPI_COMM_WORLD;
}

int Communicators::handle_of_context(int context) const
{
  auto found = handles_by_context_.find(context);
  return found == handles_by_context_.end() ? MPI_COMM_WORLD : found->second;
}

const mpi::Communicator* Communicators::find(int handle, int rank)
{
  if (handle == MPI_COMM_SELF) {
    const mpi::Communicator*& mine = self_comms_[static_cast<size_t>(rank)];
    if (mine == nullptr)
      mine = &world_.create_communicator("MPI_COMM_SELF", {rank});
    return mine;
  }
  const mpi::Communicator* const* found = table_.find(handle);
  return found != nullptr ? *found : nullptr;
}

Communicators::RankView& Communicators::view(int rank)
{
  std::unique_ptr<RankView>& mine = views_[static_cast<size_t>(rank)];
  if (not mine)
    mine = std::make_unique<RankView>();
  return *mine;
}

int Communicators::adopt(int rank, const mpi::Communicator& parent, int color,
                         const std::function<std::vector<int>()>& members)
{
  const uint32_t sequence = view(rank).creations[parent.context()]++;
  return created(std::make_tuple(parent.context(), sequence, color), parent.name(), members);
}

int Communicators::prepare(int rank, const mpi::Communicator& parent, int color, const std::vector<int>& members)
{
  const uint32_t sequence = view(rank).creations[parent.context()];
  return created(std::make_tuple(parent.context(), sequence, color), parent.name(), [&members] { return members; });
}

int Communicators::created(const std::tuple<int, uint32_t, int>& key, const std::string& parent_name,
                           const std::function<std::vector<int>()>& members)
{
  auto found = created_.find(key);
  if (found != created_.end())
    return found->second;
  const auto& [context, sequence, color] = key;
  const std::string name = parent_name + "/" + std::to_string(sequence) + ":" + std::to_string(color);
  const mpi::Communicator& comm = world_.create_communicator(name, members());
  const int handle = table_.insert(&comm);
  handles_by_context_[comm.context()] = handle;
  created_[key] = handle;
  return handle;
}

int Communicators::adopt_group(int rank, const mpi::Communicator& parent, int tag, const std::vector<int>& members)
{
  const uint32_t sequence = group_creations_[std::make_tuple(rank, parent.context(), tag, members)]++;
  auto key = std::make_tuple(parent.context(), tag, members, sequence);
  auto found = group_created_.find(key);
  if (found != group_created_.end())
    return found->second;
  const std::string name = parent.name() + "/group:" + std::to_string(tag) + ":" + std::to_string(sequence);
  const mpi::Communicator& comm = world_.create_communicator(name, members);
  const int handle = table_.insert(&comm);
  handles_by_context_[comm.context()] = handle;
  group_created_[key] = handle;
  return handle;
}

int Communicators::adopt_intercomm(int rank, int scope, const std::vector<int>& a, const std::vector<int>& b)
{
  const bool a_first = a.front() < b.front(); // disjoint: the group holding the lower world rank is named first
  IntercommKey key{scope, a_first ? a : b, a_first ? b : a};
  const uint32_t sequence = intercomm_creations_[std::make_tuple(rank, key)]++;
  auto found = intercomms_created_.find(std::make_tuple(key, sequence));
  if (found != intercomms_created_.end())
    return found->second;
  const std::vector<int>& first = std::get<1>(key);
  const std::vector<int>& second = std::get<2>(key);
  const std::string name = "intercomm:" + std::to_string(scope) + ":" + std::to_string(sequence);
  const auto [side_a, side_b] = world_.create_intercommunicator(name, first, second);
  const int handle = table_.insert(side_a);
  handles_by_context_[side_a->context()] = handle;
  local_group_comms_[handle] = {&world_.create_communicator(name + " local", first),
                                &world_.create_communicator(name + " local", second)};
  intercomms_created_[std::make_tuple(std::move(key), sequence)] = handle;
  return handle;
}

const mpi::Communicator& Communicators::local_group_comm(int handle, int rank) const
{
  const auto& [first, second] = local_group_comms_.at(handle);
  return first->local_rank(rank) >= 0 ? *first : *second;
}

int Communicators::errhandler(int rank, int comm) const
{
  const std::unique_ptr<RankView>& mine = views_[static_cast<size_t>(rank)];
  if (not mine)
    return MPI_ERRORS_ARE_FATAL;
  auto found = mine->errhandlers.find(comm);
  return found == mine->errhandlers.end() ? MPI_ERRORS_ARE_FATAL : found->second;
}

void Communicators::set_errhandler(int rank, int comm, int errhandler)
{
  view(rank).errhandlers[comm] = errhandler;
}

} // namespace mpisim::online
