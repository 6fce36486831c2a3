#include "online/objects/Intercommunicators.hpp"

#include "online/objects/Collectives.hpp"
#include "online/objects/CommLifecycle.hpp"

#include "mpi/Rank.hpp"

#include <algorithm>

namespace mpisim::online {

namespace {

// The leaders' messages over an intercommunicator use a tag of their own: MPI_ANY_TAG matches tags >= 0 only.
constexpr int kLeadersTag = -125;

bool is_leader(Runtime& runtime, const mpi::Communicator& local, int leader)
{
  return local.local_rank(runtime.current_rank()) == leader;
}

// What a leader learns of the other group from its leader `partner` over `comm`: both send their list's size, then
// the list (world ranks).
std::vector<int> swap_lists(Runtime& runtime, const mpi::Communicator& comm, int partner, int tag,
                            const std::vector<int>& mine)
{
  mpi::Rank& rank = runtime.rank();
  int my_size = static_cast<int>(mine.size());
  int their_size = 0;
  rank.sendrecv(comm, partner, tag, sizeof(int), partner, tag, sizeof(int), &my_size, &their_size);
  std::vector<int> theirs(static_cast<size_t>(their_size));
  rank.sendrecv(comm, partner, tag, static_cast<double>(mine.size() * sizeof(int)), partner, tag,
                static_cast<double>(theirs.size() * sizeof(int)), mine.data(), theirs.data());
  return theirs;
}

// What the leader checks of the arguments only it reads, and of the groups once known.
LeaderFailure check_peer_arguments(const mpi::Communicator* peer, int remote_leader, int tag)
{
  if (peer == nullptr)
    return {MPI_ERR_COMM, "invalid peer communicator"};
  if (remote_leader < 0 || remote_leader >= peer->peer_count())
    return {MPI_ERR_RANK, "invalid remote leader " + std::to_string(remote_leader) + " in a peer communicator of " +
                              std::to_string(peer->peer_count()) + " ranks"};
  if (tag < 0)
    return {MPI_ERR_TAG, "invalid tag " + std::to_string(tag)};
  return {};
}

bool overlap(const std::vector<int>& a, const std::vector<int>& b)
{
  return std::any_of(a.begin(), a.end(), [&b](int r) { return std::find(b.begin(), b.end(), r) != b.end(); });
}

// The local leaders (rank 0 of each group) swap `value` over the intercommunicator; each broadcasts what it received
// to its group. Every member gets the other group's value.
int swap_through_leaders(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& inter, int value)
{
  const mpi::Communicator& local = runtime.communicators().local_group_comm(comm, runtime.current_rank());
  int theirs = 0;
  if (is_leader(runtime, local, 0))
    runtime.rank().sendrecv(inter, 0, kLeadersTag, sizeof(int), 0, kLeadersTag, sizeof(int), &value, &theirs);
  run_bcast(runtime, local, &theirs, 1, MPI_INT, 0);
  return theirs;
}

} // namespace

MPI_Comm create_intercomm(Runtime& runtime, MPI_Comm local_comm, const mpi::Communicator& local, int local_leader,
                          const mpi::Communicator* peer, int remote_leader, int tag, LeaderFailure& failure)
{
  const std::vector<int> members = members_of(local);
  std::vector<int> remote;
  int remote_size = 0; // broadcast: the remote group's size, or minus the error class the leader found
  if (is_leader(runtime, local, local_leader)) {
    failure = check_peer_arguments(peer, remote_leader, tag);
    if (failure.error_class == MPI_SUCCESS) {
      remote = swap_lists(runtime, *peer, remote_leader, tag, members);
      if (overlap(remote, members))
        failure = {MPI_ERR_ARG, "the local and remote groups overlap"};
    }
    remote_size = failure.error_class == MPI_SUCCESS ? static_cast<int>(remote.size()) : -failure.error_class;
  }
  run_bcast(runtime, local, &remote_size, 1, MPI_INT, local_leader);
  if (remote_size < 0) {
    if (failure.error_class == MPI_SUCCESS)
      failure = {-remote_size, "the local leader could not reach the remote group"};
    return MPI_COMM_NULL;
  }
  remote.resize(static_cast<size_t>(remote_size));
  run_bcast(runtime, local, remote.data(), remote_size, MPI_INT, local_leader);
  agree_on_context(runtime, local); // MPICH agrees on a context id within each group
  const MPI_Comm made = runtime.communicators().adopt_intercomm(runtime.current_rank(), -1, members, remote);
  inherit_errhandler(runtime, local_comm, made);
  return made;
}

MPI_Comm duplicate_intercomm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& inter)
{
  const mpi::Communicator& local = runtime.communicators().local_group_comm(comm, runtime.current_rank());
  agree_on_context(runtime, local);
  swap_through_leaders(runtime, comm, inter, 0); // the leaders swap the context ids their groups agreed on
  const MPI_Comm made = runtime.communicators().adopt_intercomm(runtime.current_rank(), inter.context(),
                                                                members_of(inter), members_of(*inter.remote()));
  inherit_errhandler(runtime, comm, made);
  return made;
}

MPI_Comm split_intercomm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& inter, int color, int key)
{
  const int me = runtime.current_rank();
  const mpi::Communicator& local = runtime.communicators().local_group_comm(comm, me);
  const std::vector<SplitEntry> ours = gather_split_entries(runtime, local, SplitEntry{color, key, me});
  std::vector<SplitEntry> theirs(static_cast<size_t>(inter.remote()->size()));
  if (is_leader(runtime, local, 0))
    runtime.rank().sendrecv(inter, 0, kLeadersTag, static_cast<double>(ours.size() * sizeof(SplitEntry)), 0,
                            kLeadersTag, static_cast<double>(theirs.size() * sizeof(SplitEntry)), ours.data(),
                            theirs.data());
  run_bcast(runtime, local, theirs.data(), static_cast<int>(3 * theirs.size()), MPI_INT, 0);
  agree_on_context(runtime, local);
  if (color == MPI_UNDEFINED)
    return MPI_COMM_NULL;
  const std::vector<int> remote = members_of_color(theirs, color);
  if (remote.empty()) // no one of this color on the other side
    return MPI_COMM_NULL;
  const MPI_Comm made =
      runtime.communicators().adopt_intercomm(me, inter.context(), members_of_color(ours, color), remote);
  inherit_errhandler(runtime, comm, made);
  return made;
}

MPI_Comm create_intercomm_from_group(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& inter,
                                     const std::vector<int>& group)
{
  const int me = runtime.current_rank();
  const mpi::Communicator& local = runtime.communicators().local_group_comm(comm, me);
  std::vector<int> theirs;
  if (is_leader(runtime, local, 0)) // the leaders swap the subgroups
    theirs = swap_lists(runtime, inter, 0, kLeadersTag, group);
  int their_size = static_cast<int>(theirs.size());
  run_bcast(runtime, local, &their_size, 1, MPI_INT, 0);
  theirs.resize(static_cast<size_t>(their_size));
  run_bcast(runtime, local, theirs.data(), their_size, MPI_INT, 0);
  agree_on_context(runtime, local);
  if (theirs.empty() || std::find(group.begin(), group.end(), me) == group.end())
    return MPI_COMM_NULL;
  const MPI_Comm made = runtime.communicators().adopt_intercomm(me, inter.context(), group, theirs);
  inherit_errhandler(runtime, comm, made);
  return made;
}

MPI_Comm merge_intercomm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& inter, bool high)
{
  const bool remote_high = swap_through_leaders(runtime, comm, inter, high ? 1 : 0) != 0;
  const mpi::Communicator& remote = *inter.remote();
  const bool local_first = high != remote_high ? not high : inter.world_rank(0) < remote.world_rank(0);
  std::vector<int> members = members_of(local_first ? inter : remote);
  for (int r : members_of(local_first ? remote : inter))
    members.push_back(r);
  const MPI_Comm made = runtime.communicators().adopt(runtime.current_rank(), inter, 0, [&members] { return members; });
  inherit_errhandler(runtime, comm, made);
  agree_on_context(runtime, *runtime.comm(made)); // MPICH agrees on the merged communicator's context id on it
  return made;
}

} // namespace mpisim::online
