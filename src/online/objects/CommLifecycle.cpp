#include "online/objects/CommLifecycle.hpp"

#include "online/objects/Collectives.hpp"
#include "online/objects/Intercommunicators.hpp"

#include "mpi/Rank.hpp"
#include "mpi/collectives/Collectives.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace mpisim::online {

CreationMessages creation_messages(Runtime& runtime)
{
  return runtime.simulation().model_name() == "smpi" ? CreationMessages::Smpi : CreationMessages::ContextAgreement;
}

namespace {

// SMPI's messages (docs/specifications/communicator-creation.md) ---------------------------------------------------

constexpr int kSmpiSplitTag = -123; // rank 0's messages telling each member its group: a tag of their own
constexpr double kPointerBytes = 8; // what those messages carry: the address of the group

// Every member of a new communicator broadcasts its id (one int) from the new rank 0.
void name_like_smpi(Runtime& runtime, MPI_Comm newcomm)
{
  if (newcomm == MPI_COMM_NULL)
    return;
  int id = 0;
  run_bcast(runtime, *runtime.comm(newcomm), &id, 1, MPI_INT, 0);
}

// The communicator of `members` for the calling rank if `inside`, else MPI_COMM_NULL, made without messages; the
// members name it.
MPI_Comm adopt_and_name_like_smpi(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, bool inside,
                                  const std::vector<int>& members)
{
  const int me = runtime.current_rank();
  if (not inside) {
    runtime.communicators().skip(me, parent);
    return MPI_COMM_NULL;
  }
  const MPI_Comm newcomm = runtime.communicators().adopt(me, parent, members.front(), [&members] { return members; });
  inherit_errhandler(runtime, comm, newcomm);
  name_like_smpi(runtime, newcomm);
  return newcomm;
}

// Rank 0 of the parent, holding every rank's (color, key) in `gathered`: for each color in the order of its first
// rank, the group ordered by key then parent rank is made, and each member but rank 0 is sent its address; the sends
// of one group complete before the next group is formed.
void send_groups_like_smpi(Runtime& runtime, const mpi::Communicator& parent, const std::vector<int>& gathered)
{
  const int size = parent.size();
  mpi::Rank& rank = runtime.rank();
  std::vector<bool> grouped(static_cast<size_t>(size), false);
  for (int first = 0; first < size; ++first) {
    const int color = gathered[2 * static_cast<size_t>(first)];
    if (color == MPI_UNDEFINED || grouped[static_cast<size_t>(first)])
      continue;
    std::vector<std::pair<int, int>> by_key; // (key, parent rank)
    for (int r = first; r < size; ++r)
      if (not grouped[static_cast<size_t>(r)] && gathered[2 * static_cast<size_t>(r)] == color) {
        grouped[static_cast<size_t>(r)] = true;
        by_key.emplace_back(gathered[2 * static_cast<size_t>(r) + 1], r);
      }
    std::sort(by_key.begin(), by_key.end());
    std::vector<int> members;
    members.reserve(by_key.size());
    for (const auto& [key, r] : by_key)
      members.push_back(parent.world_rank(r));
    runtime.communicators().prepare(rank.world_rank(), parent, color, members);
    std::vector<mpi::RequestPtr> sends;
    for (const auto& [key, r] : by_key)
      if (r != 0)
        sends.push_back(rank.isend(parent, r, kSmpiSplitTag, kPointerBytes));
    rank.waitall(sends);
  }
}

MPI_Comm split_like_smpi(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, int color, int key)
{
  const int me = runtime.current_rank();
  const bool root = parent.local_rank(me) == 0;
  const std::array<int, 2> mine{color, key};
  std::vector<int> gathered(root ? static_cast<size_t>(2 * parent.size()) : 0);
  run_gather_with(runtime, parent, "linear_nbc", mine.data(), gathered.data(), 2, MPI_INT, 0);
  if (root)
    send_groups_like_smpi(runtime, parent, gathered);
  else if (color != MPI_UNDEFINED)
    runtime.rank().recv(parent, 0, kSmpiSplitTag, kPointerBytes);
  if (color == MPI_UNDEFINED) {
    runtime.communicators().skip(me, parent);
    return MPI_COMM_NULL;
  }
  // Rank 0 made the group (Communicators::prepare) before telling this rank.
  auto made_by_root = []() -> std::vector<int> { throw std::logic_error("split group used before rank 0 made it"); };
  const MPI_Comm newcomm = runtime.communicators().adopt(me, parent, color, made_by_root);
  inherit_errhandler(runtime, comm, newcomm);
  name_like_smpi(runtime, newcomm);
  return newcomm;
}

// MPICH's and Open MPI's messages ----------------------------------------------------------------------------------

MPI_Comm split_by_allgather(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, int color, int key)
{
  const int me = runtime.current_rank();
  std::vector<SplitEntry> all = gather_split_entries(runtime, parent, SplitEntry{color, key, me});
  // The creation sequence advances on every member, MPI_UNDEFINED included, so later creations stay aligned.
  auto members = [&all, color] { return members_of_color(all, color); };
  const int handle = runtime.communicators().adopt(me, parent, color == MPI_UNDEFINED ? -1 : color, members);
  const MPI_Comm newcomm = color == MPI_UNDEFINED ? MPI_COMM_NULL : handle;
  inherit_errhandler(runtime, comm, newcomm);
  return newcomm;
}

} // namespace

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

std::vector<int> members_of_color(std::vector<SplitEntry> entries, int color)
{
  std::erase_if(entries, [color](const SplitEntry& e) { return e.color != color; });
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
  std::vector<int> members;
  members.reserve(entries.size());
  for (const SplitEntry& e : entries)
    members.push_back(e.world_rank);
  return members;
}

MPI_Comm split_comm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, int color, int key)
{
  if (parent.is_inter())
    return split_intercomm(runtime, comm, parent, color, key);
  if (creation_messages(runtime) == CreationMessages::Smpi)
    return split_like_smpi(runtime, comm, parent, color, key);
  return split_by_allgather(runtime, comm, parent, color, key);
}

MPI_Comm duplicate_comm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent)
{
  if (parent.is_inter())
    return duplicate_intercomm(runtime, comm, parent);
  if (creation_messages(runtime) == CreationMessages::Smpi)
    return adopt_and_name_like_smpi(runtime, comm, parent, true, members_of(parent));
  return split_by_allgather(runtime, comm, parent, 0, parent.local_rank(runtime.current_rank()));
}

MPI_Comm window_channel(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent)
{
  if (creation_messages(runtime) == CreationMessages::ContextAgreement)
    return create_comm(runtime, comm, parent, members_of(parent));
  std::vector<int> members = members_of(parent);
  const MPI_Comm channel =
      runtime.communicators().adopt(runtime.current_rank(), parent, members.front(), [&members] { return members; });
  inherit_errhandler(runtime, comm, channel);
  return channel;
}

int dup_comm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, MPI_Comm* newcomm)
{
  *newcomm = duplicate_comm(runtime, comm, parent);
  return inherit_on_dup(runtime, comm, newcomm); // error handler, attributes, topology (MPI-3.1 section 6.4.2)
}

MPI_Comm create_from_group(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent,
                           const GroupMembers& members)
{
  if (creation_messages(runtime) == CreationMessages::ContextAgreement)
    return create_comm(runtime, comm, parent, members);
  const bool inside = group_rank_of(members, runtime.current_rank()) >= 0;
  return adopt_and_name_like_smpi(runtime, comm, parent, inside, members);
}

MPI_Comm create_from_group_members(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, int tag,
                                   const GroupMembers& members)
{
  const MPI_Comm newcomm = runtime.communicators().adopt_group(runtime.current_rank(), parent, tag, members);
  inherit_errhandler(runtime, comm, newcomm);
  if (creation_messages(runtime) == CreationMessages::Smpi)
    name_like_smpi(runtime, newcomm);
  else
    agree_on_context(runtime, *runtime.comm(newcomm));
  return newcomm;
}

MPI_Comm split_by_host(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, bool shared, int key)
{
  const int me = runtime.current_rank();
  const int host = static_cast<int>(runtime.world().host_of(me));
  if (creation_messages(runtime) == CreationMessages::ContextAgreement)
    return split_by_allgather(runtime, comm, parent, shared ? host : MPI_UNDEFINED, key);
  if (not shared) {
    runtime.communicators().skip(me, parent);
    return MPI_COMM_NULL;
  }
  std::vector<int> on_my_host;
  for (int member : members_of(parent))
    if (static_cast<int>(runtime.world().host_of(member)) == host)
      on_my_host.push_back(member);
  const MPI_Comm newcomm = runtime.communicators().adopt(me, parent, host, [&on_my_host] { return on_my_host; });
  inherit_errhandler(runtime, comm, newcomm);
  return newcomm;
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
  runtime.simulation().collectives().agree_on_context(runtime.rank(), comm);
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
