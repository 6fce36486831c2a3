#include "online/objects/Groups.hpp"

#include <algorithm>
#include <unordered_set>

namespace mpisim::online {

int GroupTable::add(int owner, GroupMembers members)
{
  if (members.empty())
    return kEmpty;
  return groups_.insert(Entry{owner, std::move(members)});
}

const GroupMembers* GroupTable::find(int owner, int handle) const
{
  static const GroupMembers empty;
  if (handle == kEmpty)
    return &empty;
  const Entry* found = groups_.find(handle);
  return found != nullptr && found->owner == owner ? &found->members : nullptr;
}

bool GroupTable::release(int owner, int handle)
{
  if (handle == kEmpty)
    return true;
  const Entry* found = groups_.find(handle);
  return found != nullptr && found->owner == owner && groups_.erase(handle);
}

namespace {
GroupMembers members_of_a(const GroupMembers& a, const GroupMembers& b, bool in_b)
{
  const std::unordered_set<int> of_b(b.begin(), b.end());
  GroupMembers result;
  std::copy_if(a.begin(), a.end(), std::back_inserter(result), [&](int r) { return of_b.contains(r) == in_b; });
  return result;
}
} // namespace

GroupMembers group_union(const GroupMembers& a, const GroupMembers& b)
{
  GroupMembers result = a;
  const GroupMembers only_b = members_of_a(b, a, false);
  result.insert(result.end(), only_b.begin(), only_b.end());
  return result;
}

GroupMembers group_intersection(const GroupMembers& a, const GroupMembers& b)
{
  return members_of_a(a, b, true);
}

GroupMembers group_difference(const GroupMembers& a, const GroupMembers& b)
{
  return members_of_a(a, b, false);
}

int group_rank_of(const GroupMembers& group, int world_rank)
{
  auto found = std::find(group.begin(), group.end(), world_rank);
  return found == group.end() ? -1 : static_cast<int>(found - group.begin());
}

} // namespace mpisim::online
