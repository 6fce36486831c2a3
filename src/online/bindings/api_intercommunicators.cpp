// Intercommunicators (MPI-3.1 section 6.6): creation, inquiry, merging. Point-to-point calls, MPI_Comm_dup and
// MPI_Comm_free take them through their own bindings; calls mpisim runs on intracommunicators only refuse them
// (resolve_intracomm).
#include "online/bindings/Arguments.hpp"
#include "online/objects/CommLifecycle.hpp"
#include "online/objects/Intercommunicators.hpp"

using namespace mpisim::online;

namespace {
int resolve_intercomm(Runtime& runtime, MPI_Comm comm, const char* call, const mpisim::mpi::Communicator*& out)
{
  MPISIM_TRY(resolve_comm(runtime, comm, call, out));
  if (out->is_inter())
    return MPI_SUCCESS;
  return raise_error(runtime, comm, MPI_ERR_COMM, call,
                     "communicator " + std::to_string(comm) + " is not an intercommunicator");
}
} // namespace

extern "C" int PMPI_Comm_test_inter(MPI_Comm comm, int* flag)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_test_inter", c));
  *flag = c->is_inter() ? 1 : 0;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_remote_size(MPI_Comm comm, int* size)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_intercomm(runtime, comm, "MPI_Comm_remote_size", c));
  *size = c->remote()->size();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_intercomm(runtime, comm, "MPI_Comm_remote_group", c));
  *group = group_of(runtime, *c->remote());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                                     int tag, MPI_Comm* newintercomm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  const mpisim::mpi::Communicator* local = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, local_comm, "MPI_Intercomm_create", local));
  MPISIM_CHECK(runtime, local_leader >= 0 && local_leader < local->size(), local_comm, MPI_ERR_RANK,
               "invalid local leader " + std::to_string(local_leader) + " in a communicator of " +
                   std::to_string(local->size()) + " ranks");
  // peer_comm, remote_leader and tag are read at the local leader only (MPI-3.1 section 6.6.2)
  const mpisim::mpi::Communicator* peer =
      local->local_rank(runtime.current_rank()) == local_leader ? runtime.comm(peer_comm) : nullptr;
  LeaderFailure failure;
  *newintercomm = create_intercomm(runtime, local_comm, *local, local_leader, peer, remote_leader, tag, failure);
  if (failure.error_class != MPI_SUCCESS)
    return raise_error(runtime, local_comm, failure.error_class, "MPI_Intercomm_create", failure.why);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  const mpisim::mpi::Communicator* inter = nullptr;
  MPISIM_TRY(resolve_intercomm(runtime, intercomm, "MPI_Intercomm_merge", inter));
  *newintracomm = merge_intercomm(runtime, intercomm, *inter, high != 0);
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Comm_test_inter)
MPISIM_ALIAS(Comm_remote_size)
MPISIM_ALIAS(Comm_remote_group)
MPISIM_ALIAS(Intercomm_create)
MPISIM_ALIAS(Intercomm_merge)
