// Groups (MPI-3.1 section 6.3): MPI_Comm_group, group queries, set operations and constructors. Groups are local
// objects: no call here communicates. Errors are raised on MPI_COMM_WORLD, as for every call without a communicator.
#include "online/bindings/Arguments.hpp"

#include <algorithm>
#include <unordered_set>

using namespace mpisim::online;

namespace {
int resolve_group(Runtime& runtime, MPI_Group group, const char* call, const GroupMembers*& out)
{
  out = runtime.groups().find(runtime.current_rank(), group);
  return out != nullptr ? MPI_SUCCESS : runtime.groups().raise_invalid(runtime, group, MPI_COMM_WORLD, call);
}

int new_group(Runtime& runtime, GroupMembers members)
{
  return runtime.groups().add(runtime.current_rank(), std::move(members));
}

// The ranks `ranks[0..n)` of a group of `size`: each valid and none twice (MPI_Group_incl/excl).
int check_distinct_ranks(Runtime& runtime, int n, const int ranks[], int size, const char* call)
{
  if (n < 0 || n > size)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_ARG, call,
                       "invalid rank count " + std::to_string(n) + " for a group of " + std::to_string(size));
  std::vector<bool> seen(static_cast<size_t>(size));
  for (int i = 0; i < n; ++i) {
    if (ranks[i] < 0 || ranks[i] >= size)
      return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_RANK, call,
                         "invalid rank " + std::to_string(ranks[i]) + " in a group of " + std::to_string(size));
    if (seen[ranks[i]])
      return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_RANK, call,
                         "rank " + std::to_string(ranks[i]) + " given twice");
    seen[ranks[i]] = true;
  }
  return MPI_SUCCESS;
}

// The ranks the triplets (first, last, stride) of MPI_Group_range_incl/excl stand for, checked as above.
int expand_ranges(Runtime& runtime, int n, int ranges[][3], int size, const char* call, std::vector<int>& out)
{
  if (n < 0)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_ARG, call, "negative range count " + std::to_string(n));
  for (int i = 0; i < n; ++i) {
    const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0 || first < 0 || first >= size || last < 0 || last >= size)
      return raise_error(runtime, MPI_COMM_WORLD, stride == 0 ? MPI_ERR_ARG : MPI_ERR_RANK, call,
                         "invalid range (" + std::to_string(first) + ", " + std::to_string(last) + ", " +
                             std::to_string(stride) + ") in a group of " + std::to_string(size));
    for (int r = first; stride > 0 ? r <= last : r >= last; r += stride)
      out.push_back(r);
  }
  return check_distinct_ranks(runtime, static_cast<int>(out.size()), out.data(), size, call);
}

GroupMembers members_at(const GroupMembers& group, const std::vector<int>& ranks)
{
  GroupMembers members;
  for (int r : ranks)
    members.push_back(group[r]);
  return members;
}

GroupMembers members_except(const GroupMembers& group, const std::vector<int>& ranks)
{
  const std::unordered_set<int> excluded(ranks.begin(), ranks.end());
  GroupMembers members;
  for (int r = 0; r < static_cast<int>(group.size()); ++r)
    if (not excluded.contains(r))
      members.push_back(group[r]);
  return members;
}
} // namespace

extern "C" int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_group", c));
  GroupMembers members;
  for (int r = 0; r < c->size(); ++r)
    members.push_back(c->world_rank(r));
  *group = new_group(runtime, std::move(members));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_size(MPI_Group group, int* size)
{
  Runtime& runtime = Runtime::get();
  const GroupMembers* g = nullptr;
  MPISIM_TRY(resolve_group(runtime, group, "MPI_Group_size", g));
  *size = static_cast<int>(g->size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_rank(MPI_Group group, int* rank)
{
  Runtime& runtime = Runtime::get();
  const GroupMembers* g = nullptr;
  MPISIM_TRY(resolve_group(runtime, group, "MPI_Group_rank", g));
  const int mine = group_rank_of(*g, runtime.current_rank());
  *rank = mine < 0 ? MPI_UNDEFINED : mine;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[])
{
  Runtime& runtime = Runtime::get();
  const GroupMembers *a = nullptr, *b = nullptr;
  MPISIM_TRY(resolve_group(runtime, group1, "MPI_Group_translate_ranks", a));
  MPISIM_TRY(resolve_group(runtime, group2, "MPI_Group_translate_ranks", b));
  MPISIM_CHECK(runtime, n >= 0, MPI_COMM_WORLD, MPI_ERR_ARG, "negative rank count " + std::to_string(n));
  for (int i = 0; i < n; ++i) {
    const int r = ranks1[i];
    MPISIM_CHECK(runtime, r == MPI_PROC_NULL || (r >= 0 && r < static_cast<int>(a->size())), MPI_COMM_WORLD,
                 MPI_ERR_RANK, "invalid rank " + std::to_string(r) + " in a group of " + std::to_string(a->size()));
  }
  for (int i = 0; i < n; ++i) {
    const int r = ranks1[i];
    const int translated = r == MPI_PROC_NULL ? MPI_PROC_NULL : group_rank_of(*b, (*a)[r]);
    ranks2[i] = translated == -1 ? MPI_UNDEFINED : translated;
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result)
{
  Runtime& runtime = Runtime::get();
  const GroupMembers *a = nullptr, *b = nullptr;
  MPISIM_TRY(resolve_group(runtime, group1, "MPI_Group_compare", a));
  MPISIM_TRY(resolve_group(runtime, group2, "MPI_Group_compare", b));
  GroupMembers sorted_a = *a, sorted_b = *b;
  std::sort(sorted_a.begin(), sorted_a.end());
  std::sort(sorted_b.begin(), sorted_b.end());
  *result = *a == *b ? MPI_IDENT : sorted_a == sorted_b ? MPI_SIMILAR : MPI_UNEQUAL;
  return MPI_SUCCESS;
}

namespace {
int combine(Runtime& runtime, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup, const char* call,
            GroupMembers (*operation)(const GroupMembers&, const GroupMembers&))
{
  const GroupMembers *a = nullptr, *b = nullptr;
  MPISIM_TRY(resolve_group(runtime, group1, call, a));
  MPISIM_TRY(resolve_group(runtime, group2, call, b));
  *newgroup = new_group(runtime, operation(*a, *b));
  return MPI_SUCCESS;
}
} // namespace

extern "C" int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup)
{
  Runtime& runtime = Runtime::get();
  return combine(runtime, group1, group2, newgroup, "MPI_Group_union", group_union);
}

extern "C" int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup)
{
  Runtime& runtime = Runtime::get();
  return combine(runtime, group1, group2, newgroup, "MPI_Group_intersection", group_intersection);
}

extern "C" int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup)
{
  Runtime& runtime = Runtime::get();
  return combine(runtime, group1, group2, newgroup, "MPI_Group_difference", group_difference);
}

extern "C" int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup)
{
  Runtime& runtime = Runtime::get();
  const GroupMembers* g = nullptr;
  MPISIM_TRY(resolve_group(runtime, group, "MPI_Group_incl", g));
  MPISIM_TRY(check_distinct_ranks(runtime, n, ranks, static_cast<int>(g->size()), "MPI_Group_incl"));
  *newgroup = new_group(runtime, members_at(*g, std::vector<int>(ranks, ranks + n)));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup)
{
  Runtime& runtime = Runtime::get();
  const GroupMembers* g = nullptr;
  MPISIM_TRY(resolve_group(runtime, group, "MPI_Group_excl", g));
  MPISIM_TRY(check_distinct_ranks(runtime, n, ranks, static_cast<int>(g->size()), "MPI_Group_excl"));
  *newgroup = new_group(runtime, members_except(*g, std::vector<int>(ranks, ranks + n)));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup)
{
  Runtime& runtime = Runtime::get();
  const GroupMembers* g = nullptr;
  MPISIM_TRY(resolve_group(runtime, group, "MPI_Group_range_incl", g));
  std::vector<int> ranks;
  MPISIM_TRY(expand_ranges(runtime, n, ranges, static_cast<int>(g->size()), "MPI_Group_range_incl", ranks));
  *newgroup = new_group(runtime, members_at(*g, ranks));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup)
{
  Runtime& runtime = Runtime::get();
  const GroupMembers* g = nullptr;
  MPISIM_TRY(resolve_group(runtime, group, "MPI_Group_range_excl", g));
  std::vector<int> ranks;
  MPISIM_TRY(expand_ranges(runtime, n, ranges, static_cast<int>(g->size()), "MPI_Group_range_excl", ranks));
  *newgroup = new_group(runtime, members_except(*g, ranks));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_free(MPI_Group* group)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, runtime.groups().release(runtime.current_rank(), *group), MPI_COMM_WORLD, MPI_ERR_GROUP,
               "cannot free group " + std::to_string(*group));
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Comm_group)
MPISIM_ALIAS(Group_size)
MPISIM_ALIAS(Group_rank)
MPISIM_ALIAS(Group_translate_ranks)
MPISIM_ALIAS(Group_compare)
MPISIM_ALIAS(Group_union)
MPISIM_ALIAS(Group_intersection)
MPISIM_ALIAS(Group_difference)
MPISIM_ALIAS(Group_incl)
MPISIM_ALIAS(Group_excl)
MPISIM_ALIAS(Group_range_incl)
MPISIM_ALIAS(Group_range_excl)
MPISIM_ALIAS(Group_free)
