#include "mpi/Communicator.hpp"

#include <algorithm>

namespace mpisim::mpi {

Communicator::Communicator(int context, std::string name, std::vector<int> world_ranks, Role role)
    : role_(role), context_(context), world_ranks_(std::move(world_ranks)), name_(std::move(name))
{
  identity_ = true;
  for (int local = 0; local < size() && identity_; ++local)
    identity_ = world_ranks_[local] == local;
  if (identity_)
    return; // no table to build: 4 bytes per rank for each such communicator (16 MiB at 2^22 ranks)
  const int largest = *std::max_element(world_ranks_.begin(), world_ranks_.end()); // not empty: empty is an identity
  sparse_ = largest + 1 > 4 * size() + 64;
  if (sparse_) {
    for (int local = 0; local < size(); ++local)
      sorted_world_local_.emplace_back(world_ranks_[local], local);
    std::sort(sorted_world_local_.begin(), sorted_world_local_.end());
    return;
  }
  local_of_world_.assign(largest + 1, -1);
  for (int local = 0; local < size(); ++local)
    local_of_world_[world_ranks_[local]] = local;
}

void Communicator::join_as_intercommunicator(Communicator& a, Communicator& b)
{
  a.remote_ = &b;
  b.remote_ = &a;
}

int Communicator::sparse_local_rank(int world_rank) const
{
  auto found = std::lower_bound(sorted_world_local_.begin(), sorted_world_local_.end(), std::make_pair(world_rank, -1));
  return found != sorted_world_local_.end() && found->first == world_rank ? found->second : -1;
}

} // namespace mpisim::mpi
