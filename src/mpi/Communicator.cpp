#include "mpi/Communicator.hpp"

#include <algorithm>

namespace mpisim::mpi {

Communicator::Communicator(int context, std::string name, std::vector<int> world_ranks, Role role)
    : role_(role), context_(context), name_(std::move(name)), world_ranks_(std::move(world_ranks))
{
  int largest = world_ranks_.empty() ? -1 : *std::max_element(world_ranks_.begin(), world_ranks_.end());
  local_of_world_.assign(largest + 1, -1);
  for (int local = 0; local < size(); ++local)
    local_of_world_[world_ranks_[local]] = local;
}

} // namespace mpisim::mpi
