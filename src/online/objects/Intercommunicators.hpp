// Intercommunicators (MPI-3.1 section 6.6): made from two disjoint groups through their leaders, duplicated, merged
// into an intracommunicator. Point-to-point calls run on them as on any communicator (a side's peers are the other
// group: mpi::Communicator); the bindings refuse the calls mpisim runs on intracommunicators only. The messages are
// MPICH's (docs/online.md, "Intercommunicators"); arguments are checked by the bindings.
#pragma once

#include "online/runtime/Runtime.hpp"

#include <mpi.h>

#include <string>

namespace mpisim::online {

// What MPI_Intercomm_create's local leader found wrong (the whole local group then fails with its class).
struct LeaderFailure {
  int error_class = MPI_SUCCESS;
  std::string why;
};

// MPI_Intercomm_create for the calling rank of `local` (the handle `local_comm`): the leader swaps its group's
// members with the remote leader over `peer` (null: invalid, only read at the leader) with `tag`, then broadcasts the
// remote group in `local`. Returns the new intercommunicator, or MPI_COMM_NULL with `failure` set (on every member)
// when the leader's arguments were wrong or the two groups overlap.
MPI_Comm create_intercomm(Runtime& runtime, MPI_Comm local_comm, const mpi::Communicator& local, int local_leader,
                          const mpi::Communicator* peer, int remote_leader, int tag, LeaderFailure& failure);
// The collective part of MPI_Comm_dup on an intercommunicator: the same two groups, a new context.
MPI_Comm duplicate_intercomm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& inter);
// MPI_Comm_split on an intercommunicator (MPI-3.1 section 6.4.2): each group split by color, ordered by key, and the
// two parts of one color joined; MPI_COMM_NULL for MPI_UNDEFINED or a color the other group lacks. Each group
// allgathers its (color, key) pairs over its hidden communicator, the leaders swap the two tables over the
// intercommunicator and broadcast the other group's, then each group agrees on a context id.
MPI_Comm split_intercomm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& inter, int color, int key);
// MPI_Comm_create on an intercommunicator (MPI-3.1 section 6.4.2): `group` (world ranks, a subgroup of the calling
// rank's group, the same on all its members) joined to the group the other side passes; MPI_COMM_NULL outside
// `group` or when the other side's is empty. The leaders swap the two groups over the intercommunicator and broadcast
// the other side's in their group, then each group agrees on a context id.
MPI_Comm create_intercomm_from_group(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& inter,
                                     const std::vector<int>& group);
// MPI_Intercomm_merge: the union of both groups, the group passing high = false first (the same `high` on both
// sides, which MPI leaves open: the group whose rank 0 has the lower world rank first).
MPI_Comm merge_intercomm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& inter, bool high);

} // namespace mpisim::online
