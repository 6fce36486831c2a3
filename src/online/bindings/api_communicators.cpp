// Communicator queries and creation (MPI_Comm_size/rank/dup/split/free/compare).
#include "online/bindings/Arguments.hpp"
#include "online/objects/CommLifecycle.hpp"

#include <algorithm>

using namespace mpisim::online;

extern "C" int PMPI_Comm_size(MPI_Comm comm, int* size)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_size", c));
  *size = c->size();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_rank(MPI_Comm comm, int* rank)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_rank", c));
  *rank = c->local_rank(runtime.current_rank());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_split", parent));
  MPISIM_CHECK(runtime, color >= 0 || color == MPI_UNDEFINED, comm, MPI_ERR_ARG,
               "negative color " + std::to_string(color));
  *newcomm = split_comm(runtime, comm, *parent, color, key);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_dup", parent));
  {
    ApiScope scope(runtime, "PMPI_Comm_split"); // the timeline names the call after the split it makes, as before
    *newcomm = duplicate_comm(runtime, comm, *parent);
  }
  // Outside the call's scope, as before: MPI calls the copy callbacks make are the application's own.
  return inherit_on_dup(runtime, comm, newcomm); // error handler, attributes, topology (MPI-3.1 section 6.4.2)
}

extern "C" int PMPI_Comm_free(MPI_Comm* comm)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, *comm != MPI_COMM_WORLD && *comm != MPI_COMM_SELF && runtime.comm(*comm) != nullptr, *comm,
               MPI_ERR_COMM, "cannot free communicator " + std::to_string(*comm));
  MPISIM_TRY(free_comm(runtime, *comm)); // attribute delete callbacks, name, topology
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

namespace {
// MPI_CONGRUENT (same members, same order), MPI_SIMILAR (same members) or MPI_UNEQUAL: mpi.h numbers them in that
// order, so the weaker of two results is the larger.
int compare_groups(const mpisim::mpi::Communicator& a, const mpisim::mpi::Communicator& b)
{
  bool same_order = a.size() == b.size(), same_members = a.size() == b.size();
  for (int r = 0; same_members && r < a.size(); ++r) {
    same_order = same_order && a.world_rank(r) == b.world_rank(r);
    same_members = b.local_rank(a.world_rank(r)) >= 0;
  }
  return same_order ? MPI_CONGRUENT : same_members ? MPI_SIMILAR : MPI_UNEQUAL;
}
} // namespace

extern "C" int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* a = runtime.comm(comm1);
  const mpisim::mpi::Communicator* b = runtime.comm(comm2);
  MPISIM_CHECK(runtime, a != nullptr && b != nullptr, comm1, MPI_ERR_COMM, "invalid communicator");
  if (a == b) {
    *result = MPI_IDENT;
    return MPI_SUCCESS;
  }
  if (a->is_inter() != b->is_inter()) {
    *result = MPI_UNEQUAL;
    return MPI_SUCCESS;
  }
  // Intercommunicators: their local groups and their remote groups compared, the result the weaker of the two.
  *result = compare_groups(*a, *b);
  if (a->is_inter())
    *result = std::max(*result, compare_groups(*a->remote(), *b->remote()));
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Comm_size)
MPISIM_ALIAS(Comm_rank)
MPISIM_ALIAS(Comm_split)
MPISIM_ALIAS(Comm_dup)
MPISIM_ALIAS(Comm_free)
MPISIM_ALIAS(Comm_compare)
