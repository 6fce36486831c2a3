#include "mpi/Polling.hpp"

#include <algorithm>

namespace mpisim::mpi {

bool PollStreak::covers(const std::vector<kernel::ActivityPtr>& pending, const ProbeFilter* filter) const
{
  if (requests_.empty() && filters_.empty())
    return false;
  for (const kernel::ActivityPtr& request : pending)
    if (std::find(requests_.begin(), requests_.end(), request) == requests_.end())
      return false;
  return filter == nullptr || std::find(filters_.begin(), filters_.end(), *filter) != filters_.end();
}

void PollStreak::add(const std::vector<kernel::ActivityPtr>& pending, const ProbeFilter* filter)
{
  for (const kernel::ActivityPtr& request : pending)
    if (std::find(requests_.begin(), requests_.end(), request) == requests_.end())
      requests_.push_back(request);
  if (filter != nullptr && std::find(filters_.begin(), filters_.end(), *filter) == filters_.end())
    filters_.push_back(*filter);
}

void PollStreak::clear_all()
{
  requests_.clear();
  filters_.clear();
  released_ = 0;
}

} // namespace mpisim::mpi
