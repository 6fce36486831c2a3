// The communicators a rank uses, each with a name that every member gives it, and its ranks in MPI_COMM_WORLD.
//
// Names: MPI_COMM_WORLD is `world`, MPI_COMM_SELF `self`. A communicator made by a collective call on a parent
// (split, dup, create, cart, graph, intercomm) is `<parent>.<n>`, n counting the creations on the parent (all members
// of the parent make them in the same order, so they agree on n), followed by `@<lowest world rank>` when it holds
// fewer ranks than its parent (to tell apart the colours of one split): `world.1@2`. A communicator met without
// having seen its creation (MPI_Comm_create_group, or one made before MPI_Init returned) is `unknown.<n>`, n local.
//
// Rank translation uses MPI's groups (MPI_Group_translate_ranks), once per communicator; for an intercommunicator,
// peers are ranks of the remote group.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace mpisim::record {

struct Communicator {
  std::string id;
  int size = 0; // local group
  int rank = 0; // this process in the local group
  bool inter = false;
  bool spans_world = false;        // intra-communicator holding every world rank (maybe reordered): its collectives are
                                   // MPI_COMM_WORLD collectives once roots and arrays are put in world order
  std::vector<int> world_of;       // peer rank (remote group for an intercommunicator) -> world rank
  std::vector<int> local_world_of; // local group rank -> world rank
  int creations = 0;

  int to_world(int peer) const { return world_of[static_cast<size_t>(peer)]; }
};

class Communicators {
public:
  void init(int world_rank, int world_size);
  // The communicator's record, built on first use. Never null for a valid communicator.
  std::shared_ptr<Communicator> get(MPI_Comm comm);
  // Records `child`, just created from `parent` by a collective call (`child` may be MPI_COMM_NULL for a rank that
  // is not a member: the creation still counts on the parent). Returns the new record, or null.
  std::shared_ptr<Communicator> created(MPI_Comm parent, MPI_Comm child);
  void freed(MPI_Comm comm);
  const std::shared_ptr<Communicator>& world() const { return world_; }

private:
  std::shared_ptr<Communicator> describe(MPI_Comm comm, std::string id);

  int world_size_ = 0;
  MPI_Group world_group_ = MPI_GROUP_NULL;
  std::shared_ptr<Communicator> world_;
  std::unordered_map<MPI_Comm, std::shared_ptr<Communicator>> known_;
  int unknown_ = 0;
};

} // namespace mpisim::record
