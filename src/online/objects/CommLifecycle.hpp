// Communicators from creation to MPI_Comm_free: the collective part of their creation (split, duplicate, create from
// a group), what a new communicator inherits (error handler, attributes, topology), and what freeing drops. The
// bindings (api_communicators.cpp, api_communicator_creation.cpp, api_topologies.cpp, api_info.cpp) and the windows
// (a window's hidden communicator) call these; arguments are checked by the bindings.
#pragma once

#include "online/objects/Groups.hpp"
#include "online/runtime/Runtime.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace mpisim::online {

// Which messages creating a communicator sends (docs/specifications/communicator-creation.md): SimGrid 3.32's SMPI's
// under --model smpi, so that programs are timed as smpirun times them; under the other models the collectives of
// MPICH and Open MPI's context agreement.
enum class CreationMessages : uint8_t { Smpi, ContextAgreement };
CreationMessages creation_messages(Runtime& runtime);

// What every member contributes to MPI_Comm_split (on an intracommunicator's parent, or on each group of an
// intercommunicator).
struct SplitEntry {
  int color;
  int key;
  int world_rank;
};
// Every member's entry over `parent`, in rank order, gathered with the collective library (so it costs what an
// allgather costs).
std::vector<SplitEntry> gather_split_entries(Runtime& runtime, const mpi::Communicator& parent, SplitEntry mine);
// The members (world ranks) of `color`, ordered by key, then by their entries' order.
std::vector<int> members_of_color(std::vector<SplitEntry> entries, int color);

// MPI_Comm_split: the new communicator of the calling rank's color, ordered by key then parent rank, inheriting
// `comm`'s error handler; MPI_COMM_NULL for color MPI_UNDEFINED. SMPI: (color, key) gathered at rank 0, which sends
// each member its group, then each group named; otherwise every member's color and key allgathered over `parent`.
// An intercommunicator is split as MPICH does (Intercommunicators.hpp), whatever the model.
MPI_Comm split_comm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, int color, int key);
// The collective part of MPI_Comm_dup: SMPI names the duplicate; otherwise a split keeping the order. An
// intercommunicator is duplicated as MPICH does (Intercommunicators.hpp), whatever the model.
MPI_Comm duplicate_comm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent);
// MPI_Comm_dup: duplicate_comm, then inherit_on_dup. Returns a copy callback's error (`newcomm` is then
// MPI_COMM_NULL).
int dup_comm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, MPI_Comm* newcomm);
// The communicator of `members` (world ranks of the calling rank's group, all in `parent`) for its members,
// MPI_COMM_NULL for the others; the context agreed by an allreduce over `parent` (MPICH's way, whatever the model:
// windows' hidden communicators).
MPI_Comm create_comm(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, const GroupMembers& members);
// The hidden communicator of a window over all of `parent`: SMPI has none (its window messages use the parent with
// tags of their own), so under SMPI's creation rule it is made without messages; otherwise as create_comm.
MPI_Comm window_channel(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent);
// MPI_Comm_create, MPI_Cart_create, MPI_Graph_create: as create_comm, except that under SMPI only the members name
// the new communicator (the others send nothing).
MPI_Comm create_from_group(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent,
                           const GroupMembers& members);
// MPI_Comm_create_group, for a member of `members`: SMPI names the new communicator; otherwise its members agree
// on a context (an allreduce).
MPI_Comm create_from_group_members(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, int tag,
                                   const GroupMembers& members);
// MPI_Comm_split_type with MPI_COMM_TYPE_SHARED (`shared`) or MPI_UNDEFINED: the parent's ranks on the calling
// rank's host. SMPI sends nothing and, as it does, ignores the key (parent order); otherwise a split by host.
MPI_Comm split_by_host(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& parent, bool shared, int key);
// What creating a context id costs in MPICH and Open MPI: an allreduce over the communicator.
void agree_on_context(Runtime& runtime, const mpi::Communicator& comm);
// MPI_Comm_free's work: the calling rank's attributes (delete callbacks), name and topology of `comm` dropped.
// Returns a delete callback's error.
int free_comm(Runtime& runtime, MPI_Comm comm);
// MPI_Comm_group: a new group of the communicator's members, owned by the calling rank.
int group_of(Runtime& runtime, const mpi::Communicator& comm);
// The world ranks of the members, in rank order.
std::vector<int> members_of(const mpi::Communicator& comm);

// MPI_Comm_dup/idup: the error handler, the attributes whose copy callbacks keep them, and the topology. Returns a
// copy callback's error, the duplicate then freed and `to` set to MPI_COMM_NULL (as MPICH does).
int inherit_on_dup(Runtime& runtime, MPI_Comm from, MPI_Comm* to);
// MPI_Comm_create, MPI_Comm_split ...: a new communicator inherits its parent's error handler (MPI-3.1 section 8.3).
void inherit_errhandler(Runtime& runtime, MPI_Comm parent, MPI_Comm child);
// MPI_Comm_free: runs the delete callbacks of the calling rank's attributes, forgets its name and topology. Returns a
// delete callback's error.
int release_on_free(Runtime& runtime, MPI_Comm comm);

} // namespace mpisim::online
