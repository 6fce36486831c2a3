// MPI groups: ordered sets of processes, kept as the world ranks of their members. A group is a local object of the
// rank that made it (MPI_Comm_group, MPI_Group_incl, ...): handles come from one table, but each live handle belongs
// to one rank, so a rank freeing its group never touches another rank's.
#pragma once

#include "online/runtime/HandleTable.hpp"

#include <vector>

namespace mpisim::online {

using GroupMembers = std::vector<int>; // world ranks, in group rank order

class GroupTable {
public:
  static constexpr int kNull = 0;  // MPI_GROUP_NULL
  static constexpr int kEmpty = 1; // MPI_GROUP_EMPTY, predefined for every rank

  // A new handle owned by `owner` (MPI_GROUP_EMPTY when there are no members, as Open MPI and MPICH return).
  int add(int owner, GroupMembers members);
  // The members of `handle` as seen by `owner`; null when the handle is not one of its live groups.
  const GroupMembers* find(int owner, int handle) const;
  // False when `handle` is not one of `owner`'s live groups. Freeing MPI_GROUP_EMPTY is allowed and does nothing.
  bool release(int owner, int handle);
  // MPI_ERR_GROUP: "invalid group <handle>", through `comm`'s error handler.
  int raise_invalid(Runtime& runtime, int handle, int comm, const char* call) const
  {
    return groups_.raise_invalid(runtime, handle, comm, call);
  }

private:
  struct Entry {
    int owner;
    GroupMembers members;
  };
  HandleTable<Entry> groups_{{MPI_ERR_GROUP, "group"}, kEmpty + 1};
};

// Set operations of MPI-3.1 section 6.3.2, in the order the standard gives the result.
GroupMembers group_union(const GroupMembers& a, const GroupMembers& b);
GroupMembers group_intersection(const GroupMembers& a, const GroupMembers& b);
GroupMembers group_difference(const GroupMembers& a, const GroupMembers& b);
// The rank of `world_rank` in `group`, -1 when it is not a member.
int group_rank_of(const GroupMembers& group, int world_rank);

} // namespace mpisim::online
