#include "record/Communicators.hpp"

#include <algorithm>
#include <numeric>

namespace mpisim::record {

namespace {

std::vector<int> world_ranks_of(MPI_Group group, MPI_Group world_group)
{
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> ranks(static_cast<size_t>(size));
  std::iota(ranks.begin(), ranks.end(), 0);
  std::vector<int> world(static_cast<size_t>(size), MPI_UNDEFINED);
  if (size > 0)
    PMPI_Group_translate_ranks(group, size, ranks.data(), world_group, world.data());
  return world;
}

} // namespace

void Communicators::init(int world_rank, int world_size)
{
  world_size_ = world_size;
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group_);
  world_ = std::make_shared<Communicator>();
  world_->id = "world";
  world_->size = world_size;
  world_->rank = world_rank;
  world_->spans_world = true;
  world_->world_of.resize(static_cast<size_t>(world_size));
  std::iota(world_->world_of.begin(), world_->world_of.end(), 0);
  world_->local_world_of = world_->world_of;
  known_[MPI_COMM_WORLD] = world_;
  known_[MPI_COMM_SELF] = describe(MPI_COMM_SELF, "self");
}

std::shared_ptr<Communicator> Communicators::describe(MPI_Comm comm, std::string id)
{
  auto record = std::make_shared<Communicator>();
  record->id = std::move(id);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  record->inter = inter != 0;
  PMPI_Comm_size(comm, &record->size);
  PMPI_Comm_rank(comm, &record->rank);

  MPI_Group local = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &local);
  record->local_world_of = world_ranks_of(local, world_group_);
  PMPI_Group_free(&local);
  if (record->inter) {
    MPI_Group remote = MPI_GROUP_NULL;
    PMPI_Comm_remote_group(comm, &remote);
    record->world_of = world_ranks_of(remote, world_group_);
    PMPI_Group_free(&remote);
  } else {
    record->world_of = record->local_world_of;
  }
  record->spans_world = not record->inter && record->size == world_size_;
  return record;
}

std::shared_ptr<Communicator> Communicators::get(MPI_Comm comm)
{
  if (comm == MPI_COMM_WORLD)
    return world_;
  auto found = known_.find(comm);
  if (found != known_.end())
    return found->second;
  auto record = describe(comm, "unknown." + std::to_string(++unknown_));
  known_[comm] = record;
  return record;
}

std::shared_ptr<Communicator> Communicators::created(MPI_Comm parent, MPI_Comm child)
{
  std::shared_ptr<Communicator> from = get(parent);
  int n = ++from->creations;
  if (child == MPI_COMM_NULL)
    return nullptr;
  auto record = describe(child, from->id + "." + std::to_string(n));
  if (record->size < from->size && not record->local_world_of.empty())
    record->id.append("@").append(
        std::to_string(*std::min_element(record->local_world_of.begin(), record->local_world_of.end())));
  known_[child] = record;
  return record;
}

void Communicators::freed(MPI_Comm comm)
{
  // Requests may still hold the record (a communicator can be freed with operations pending): shared ownership.
  if (comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF)
    known_.erase(comm);
}

} // namespace mpisim::record
