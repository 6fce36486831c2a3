// Communicator queries and creation (MPI_Comm_size/rank/dup/split/free/compare).
#include "online/bindings/Arguments.hpp"
#include "online/objects/CommLifecycle.hpp"

#include <algorithm>
#include <tuple>

using namespace mpisim::online;

namespace {
// What every member of the parent contributes to MPI_Comm_split, gathered with the collective library (so the
// call costs what an allgather costs).
struct SplitEntry {
  int color;
  int key;
  int world_rank;
};

std::vector<SplitEntry> gather_split_entries(ApiScope& scope, const mpisim::mpi::Communicator& parent, SplitEntry mine)
{
  std::vector<SplitEntry> all(parent.size());
  mpisim::mpi::CollectiveCall call;
  call.op = mpisim::mpi::Collective::Allgather;
  call.bytes = call.recv_bytes = sizeof(SplitEntry);
  call.element_bytes = sizeof(int);
  call.with_data = true;
  call.send_data = reinterpret_cast<const std::byte*>(&mine);
  call.recv_data = reinterpret_cast<std::byte*>(all.data());
  scope.runtime().simulation().collectives().run(scope.rank(), parent, call);
  return all;
}
} // namespace

extern "C" int PMPI_Comm_size(MPI_Comm comm, int* size)
{
  const mpisim::mpi::Communicator* c = Runtime::get().comm(comm);
  MPISIM_CHECK(c != nullptr, comm, MPI_ERR_COMM, "invalid communicator " + std::to_string(comm));
  *size = c->size();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_rank(MPI_Comm comm, int* rank)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = runtime.comm(comm);
  MPISIM_CHECK(c != nullptr, comm, MPI_ERR_COMM, "invalid communicator " + std::to_string(comm));
  *rank = c->local_rank(runtime.current_rank());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm)
{
  ApiScope scope;
  const mpisim::mpi::Communicator* parent = scope.runtime().comm(comm);
  MPISIM_CHECK(parent != nullptr, comm, MPI_ERR_COMM, "invalid communicator " + std::to_string(comm));
  MPISIM_CHECK(color >= 0 || color == MPI_UNDEFINED, comm, MPI_ERR_ARG, "negative color " + std::to_string(color));
  const int me = scope.runtime().current_rank();
  std::vector<SplitEntry> all = gather_split_entries(scope, *parent, SplitEntry{color, key, me});
  // The creation sequence advances on every member, MPI_UNDEFINED included, so later creations stay aligned.
  auto members = [&all, color] {
    std::vector<SplitEntry> mine;
    std::copy_if(all.begin(), all.end(), std::back_inserter(mine), [color](auto& e) { return e.color == color; });
    std::stable_sort(mine.begin(), mine.end(), [](auto& a, auto& b) { return a.key < b.key; });
    std::vector<int> ranks;
    for (const SplitEntry& e : mine)
      ranks.push_back(e.world_rank);
    return ranks;
  };
  const int handle = scope.runtime().adopt(*parent, color == MPI_UNDEFINED ? -1 : color, members);
  *newcomm = color == MPI_UNDEFINED ? MPI_COMM_NULL : handle;
  inherit_errhandler(comm, *newcomm);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm)
{
  const mpisim::mpi::Communicator* parent = Runtime::get().comm(comm);
  MPISIM_CHECK(parent != nullptr, comm, MPI_ERR_COMM, "invalid communicator " + std::to_string(comm));
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  MPISIM_TRY(PMPI_Comm_split(comm, 0, rank, newcomm));
  return inherit_on_dup(comm, *newcomm); // error handler, attributes, topology (MPI-3.1 section 6.4.2)
}

extern "C" int PMPI_Comm_free(MPI_Comm* comm)
{
  MPISIM_CHECK(*comm != MPI_COMM_WORLD && *comm != MPI_COMM_SELF && Runtime::get().comm(*comm) != nullptr, *comm,
               MPI_ERR_COMM, "cannot free communicator " + std::to_string(*comm));
  MPISIM_TRY(release_on_free(*comm)); // attribute delete callbacks, name, topology
  Runtime::get().release_comm(*comm);
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* a = runtime.comm(comm1);
  const mpisim::mpi::Communicator* b = runtime.comm(comm2);
  MPISIM_CHECK(a != nullptr && b != nullptr, comm1, MPI_ERR_COMM, "invalid communicator");
  if (a == b) {
    *result = MPI_IDENT;
    return MPI_SUCCESS;
  }
  bool same_order = a->size() == b->size(), same_members = a->size() == b->size();
  for (int r = 0; same_members && r < a->size(); ++r) {
    same_order = same_order && a->world_rank(r) == b->world_rank(r);
    same_members = b->local_rank(a->world_rank(r)) >= 0;
  }
  *result = same_order ? MPI_CONGRUENT : same_members ? MPI_SIMILAR : MPI_UNEQUAL;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Comm_size)
MPISIM_ALIAS(Comm_rank)
MPISIM_ALIAS(Comm_split)
MPISIM_ALIAS(Comm_dup)
MPISIM_ALIAS(Comm_free)
MPISIM_ALIAS(Comm_compare)
