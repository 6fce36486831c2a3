#include "online/objects/CommLifecycle.hpp"

#include "online/objects/Collectives.hpp"

#include "mpi/Rank.hpp"
#include "mpi/collectives/Collectives.hpp"

#include <algorithm>

namespace mpisim::online {

namespace {

// What every member of the parent contributes to MPI_Comm_split, gathered with the collective library (so the
// call costs what an allgather costs).
struct SplitEntry {
  int color;
  int key;
  int world_rank;
};

std::vector<SplitEntry> gather_split_entries(Runtime& runtime, const mpi::Communicator& parent, SplitEntry mine)
{
  std::vector<SplitEntry> all(parent.size());
  mpi::CollectiveCall call;
  call.op = mpi::Collective::Allgather;
  call.bytes = call.recv_bytes = sizeof(SplitEntry);
  call.element_bytes = sizeof(int);
  call.with_data = true;
  call.send_data = reinterpret_cast<const std::byte*>(&mine);
  call.recv_data = reinterpret_cast<std::byte*>(all.data());
  runtime.simulation().collectives().run(runtime.rank(), parent, call);
  return all;
}

} // namespace

MPI_Comm split_comm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, int color, int key)
{
  const int me = runtime.current_rank();
  std::vector<SplitEntry> all = gather_split_entries(runtime, parent, SplitEntry{color, key, me});
  // The creation sequence advances on every member, MPI_UNDEFINED included, so later creations stay aligned.
  auto members = [&all, color] {
    std::vector<SplitEntry> mine;
    std::copy_if(all.begin(), all.end(), std::back_inserter(mine), [color](auto& e) { return e.color == color; });
    std::stable_sort(mine.begin(), mine.end(), [](auto& a, auto& b) { return a.key < b.key; });
    std::vector<int> ranks;
    ranks.reserve(mine.size());
    for (const SplitEntry& e : mine)
      ranks.push_back(e.world_rank);
    return ranks;
  };
  const int handle = runtime.communicators().adopt(me, parent, color == MPI_UNDEFINED ? -1 : color, members);
  const MPI_Comm newcomm = color == MPI_UNDEFINED ? MPI_COMM_NULL : handle;
  inherit_errhandler(runtime, comm, newcomm);
  return newcomm;
}

int dup_comm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, MPI_Comm* newcomm)
{
  *newcomm = split_comm(runtime, comm, parent, 0, parent.local_rank(runtime.current_rank()));
  return inherit_on_dup(runtime, comm, newcomm); // error handler, attributes, topology (MPI-3.1 section 6.4.2)
}

MPI_Comm create_comm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, const GroupMembers& members)
{
  agree_on_context(runtime, parent);
  const int me = runtime.current_rank();
  // Each rank passes the group it belongs to (disjoint groups are allowed): the group's first member names it. The
  // creation sequence advances on every member of the parent, outsiders included.
  const bool inside = group_rank_of(members, me) >= 0;
  auto chosen = [&] {
    if (inside)
      return members;
    std::vector<int> outsiders;
    for (int member : members_of(parent))
      if (group_rank_of(members, member) < 0)
        outsiders.push_back(member);
    return outsiders;
  };
  const int handle = runtime.communicators().adopt(me, parent, inside ? members.front() : -1, chosen);
  const MPI_Comm newcomm = inside ? handle : MPI_COMM_NULL;
  inherit_errhandler(runtime, comm, newcomm);
  return newcomm;
}

void agree_on_context(Runtime& runtime, const mpi::Communicator& comm)
{
  int mine = 0, agreed = 0;
  run_allreduce(runtime, comm, &mine, &agreed, 1, MPI_INT, MPI_MAX);
}

int free_comm(Runtime& runtime, MPI_Comm comm)
{
  const int error = release_on_free(runtime, comm); // attribute delete callbacks, name, topology
  if (error == MPI_SUCCESS)
    runtime.communicators().release(comm);
  return error;
}

int group_of(Runtime& runtime, const mpi::Communicator& comm)
{
  return runtime.groups().add(runtime.current_rank(), members_of(comm));
}

std::vector<int> members_of(const mpi::Communicator& comm)
{
  std::vector<int> members;
  members.reserve(static_cast<size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r)
    members.push_back(comm.world_rank(r));
  return members;
}

void inherit_errhandler(Runtime& runtime, MPI_Comm parent, MPI_Comm child)
{
  const int me = runtime.current_rank();
  if (child != MPI_COMM_NULL)
    runtime.communicators().set_errhandler(me, child, runtime.communicators().errhandler(me, parent));
}

int inherit_on_dup(Runtime& runtime, MPI_Comm from, MPI_Comm* to)
{
  const int me = runtime.current_rank();
  inherit_errhandler(runtime, from, *to);
  if (auto topology = runtime.comm_properties().topology(me, from))
    runtime.comm_properties().set_topology(me, *to, topology);
  const int error = runtime.attributes().copy_all(me, AttributeObject::Comm, from, *to);
  if (error != MPI_SUCCESS) { // the failed duplicate is dropped with what was copied so far
    release_on_free(runtime, *to);
    runtime.communicators().release(*to);
    *to = MPI_COMM_NULL;
  }
  return error;
}

int release_on_free(Runtime& runtime, MPI_Comm comm)
{
  const int me = runtime.current_rank();
  const int error = runtime.attributes().remove_all(me, AttributeObject::Comm, comm);
  runtime.comm_properties().forget(me, comm);
  return error;
}

} // namespace mpisim::online
