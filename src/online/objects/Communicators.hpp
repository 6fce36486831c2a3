// The communicators of a run behind MPI_Comm handles: MPI_COMM_WORLD, each rank's MPI_COMM_SELF (made on its first
// use), and those created collectively. Handles are shared by all ranks (one process): a communicator created
// collectively gets the same handle on every member, so a rank's private copy of the program may store it anywhere.
// What each rank keeps of its view of a communicator (how many it created on it, its error handler) is per rank, as
// each process of a real run has its own.
#pragma once

#include "online/runtime/HandleTable.hpp"

#include "mpi/World.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace mpisim::online {

class Communicators {
public:
  explicit Communicators(mpi::World& world);

  // Null when `handle` names no communicator; MPI_COMM_SELF is `rank`'s own (made on first use), and `rank` is read
  // for it only.
  const mpi::Communicator* find(int handle, int rank);
  // MPI_ERR_COMM: "invalid communicator <handle>", through `comm`'s error handler.
  int raise_invalid(Runtime& runtime, int handle, int comm, const char* call) const
  {
    return table_.raise_invalid(runtime, handle, comm, call);
  }

  // The communicator made by `rank`'s n-th creation on `parent` with this color: every member gets the same handle;
  // `members` is called by the first one to arrive.
  int adopt(int rank, const mpi::Communicator& parent, int color, const std::function<std::vector<int>()>& members);
  // The communicator of `color` that `rank`'s next creation on `parent` gives, made now by the one rank that knows
  // its members (SMPI's split: the parent's rank 0, before it tells them); their adopt() finds it.
  int prepare(int rank, const mpi::Communicator& parent, int color, const std::vector<int>& members);
  // `rank`'s next creation on `parent` gives it no communicator (MPI_UNDEFINED, outside the group) and makes none.
  void skip(int rank, const mpi::Communicator& parent) { ++view(rank).creations[parent.context()]; }
  // The communicator MPI_Comm_create_group makes for `members` (world ranks, in order) with `tag`; every member gets
  // the same handle. Creations are counted per (rank, parent, tag, members), as only the members take part.
  int adopt_group(int rank, const mpi::Communicator& parent, int tag, const std::vector<int>& members);
  // The intercommunicator between the disjoint groups `a` and `b` (world ranks) that `rank`'s next creation under
  // `scope` gives (MPI_Intercomm_create: -1; a duplicate: the parent's context): both groups get the same handle, and
  // Runtime::comm() gives each rank its own side. Creations are counted per (rank, scope, groups).
  int adopt_intercomm(int rank, int scope, const std::vector<int>& a, const std::vector<int>& b);
  // The hidden intracommunicator of `rank`'s group in the intercommunicator `handle` (its leaders' exchanges are
  // broadcast there): made with the intercommunicator, freed never.
  const mpi::Communicator& local_group_comm(int handle, int rank) const;

  // Communicators stay allocated: other members may still use the handle (each member frees its own reference).
  void release(int handle) { (void)handle; }

  // The handle of a communicator made here (MPI_COMM_WORLD for one the runtime made for itself): whose error handler
  // an error found below the C API goes through (a process failure found in MPI_Wait).
  int handle_of_context(int context) const;

  // Error handlers belong to each rank's view of a communicator (MPI_ERRORS_ARE_FATAL unless set).
  int errhandler(int rank, int comm) const;
  void set_errhandler(int rank, int comm, int errhandler);

private:
  // What a rank keeps of its communicators, made on first use (memory per rank is what limits scale).
  struct RankView {
    std::map<int, uint32_t> creations; // by parent context: how many this rank made (see adopt)
    std::map<int, int> errhandlers;    // by handle, when not MPI_ERRORS_ARE_FATAL
  };
  RankView& view(int rank);
  // The communicator created under `key` (parent context, sequence, color), made by the first caller.
  int created(const std::tuple<int, uint32_t, int>& key, const std::string& parent_name,
              const std::function<std::vector<int>()>& members);

  mpi::World& world_;
  HandleTable<const mpi::Communicator*, HandleStorage::Dense> table_; // 0: MPI_COMM_NULL; 2: MPI_COMM_SELF (below)
  std::vector<const mpi::Communicator*> self_comms_;                  // by world rank
  std::vector<std::unique_ptr<RankView>> views_;                      // by world rank
  std::map<std::tuple<int, uint32_t, int>, int> created_;             // (parent context, sequence, color) -> handle
  std::map<int, int> handles_by_context_;                             // context -> handle
  std::map<std::tuple<int, int, int, std::vector<int>>, uint32_t> group_creations_; // (rank, context, tag, members)
  std::map<std::tuple<int, int, std::vector<int>, uint32_t>, int> group_created_;   // (context, tag, members, seq)
  using IntercommKey = std::tuple<int, std::vector<int>, std::vector<int>>; // (scope, groups in canonical order)
  std::map<std::tuple<int, IntercommKey>, uint32_t> intercomm_creations_;   // (rank, key) -> creations so far
  std::map<std::tuple<IntercommKey, uint32_t>, int> intercomms_created_;    // (key, sequence) -> handle
  std::map<int, std::pair<const mpi::Communicator*, const mpi::Communicator*>> local_group_comms_; // by handle
};

} // namespace mpisim::online
