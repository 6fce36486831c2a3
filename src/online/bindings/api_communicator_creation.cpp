// Communicator creation from groups and hosts, duplication without blocking, naming (MPI-3.1 sections 6.4, 6.8).
#include "online/bindings/Arguments.hpp"
#include "online/objects/CommLifecycle.hpp"
#include "online/objects/Intercommunicators.hpp"

#include <algorithm>
#include <cstring>

using namespace mpisim::online;

namespace {
int resolve_subgroup(Runtime& runtime, MPI_Comm comm, const mpisim::mpi::Communicator& parent, MPI_Group group,
                     const char* call, const GroupMembers*& out)
{
  out = runtime.groups().find(runtime.current_rank(), group);
  if (out == nullptr)
    return runtime.groups().raise_invalid(runtime, group, comm, call);
  for (int member : *out)
    if (parent.local_rank(member) < 0)
      return raise_error(runtime, comm, MPI_ERR_GROUP, call,
                         "the group holds world rank " + std::to_string(member) + ", not a member of the communicator");
  return MPI_SUCCESS;
}
} // namespace

extern "C" int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_create", parent));
  const GroupMembers* members = nullptr;
  MPISIM_TRY(resolve_subgroup(runtime, comm, *parent, group, "MPI_Comm_create", members));
  *newcomm = parent->is_inter() ? create_intercomm_from_group(runtime, comm, *parent, *members)
                                : create_from_group(runtime, comm, *parent, *members);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPI_Comm_create_group", parent));
  const GroupMembers* members = nullptr;
  MPISIM_TRY(resolve_subgroup(runtime, comm, *parent, group, "MPI_Comm_create_group", members));
  MPISIM_TRY(check_tag(runtime, comm, tag, false, "MPI_Comm_create_group"));
  if (group_rank_of(*members, runtime.current_rank()) < 0) {
    *newcomm = MPI_COMM_NULL; // only the group's members call it; an outsider gets nothing (as MPICH)
    return MPI_SUCCESS;
  }
  *newcomm = create_from_group_members(runtime, comm, *parent, tag, *members);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm)
{
  Runtime& runtime = Runtime::get();
  (void)info; // no hints are understood
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPI_Comm_split_type", parent));
  MPISIM_CHECK(runtime, split_type == MPI_COMM_TYPE_SHARED || split_type == MPI_UNDEFINED, comm, MPI_ERR_ARG,
               "unknown split type " + std::to_string(split_type));
  ApiScope scope(runtime, "PMPI_Comm_split"); // the timeline names it after the split it makes, as before
  *newcomm = split_by_host(runtime, comm, *parent, split_type == MPI_COMM_TYPE_SHARED, key);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  const mpisim::mpi::Communicator* parent = nullptr;
  MPISIM_TRY(resolve_intracomm(runtime, comm, "MPI_Comm_idup", parent));
  // The members are known locally, so no rank waits for another: the duplicate is complete at once (same creation
  // sequence as MPI_Comm_dup, which MPI orders with the other collectives on `comm`).
  const int me = runtime.current_rank();
  *newcomm = runtime.communicators().adopt(me, *parent, 0, [parent] { return members_of(*parent); });
  MPISIM_TRY(inherit_on_dup(runtime, comm, newcomm));
  *request = runtime.requests().add(RequestEntry{.owner = ErrorOwner::communicator(comm)});
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_set_name(MPI_Comm comm, const char* comm_name)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_set_name", c));
  MPISIM_CHECK(runtime, comm_name != nullptr, comm, MPI_ERR_ARG, "null name");
  const size_t length = strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1);
  runtime.comm_properties().set_name(runtime.current_rank(), comm, std::string(comm_name, length));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_get_name(MPI_Comm comm, char* comm_name, int* resultlen)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Comm_get_name", c));
  const std::string* set = runtime.comm_properties().name(runtime.current_rank(), comm);
  const std::string name = set                      ? *set
                           : comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD"
                           : comm == MPI_COMM_SELF  ? "MPI_COMM_SELF"
                                                    : "";
  std::memcpy(comm_name, name.c_str(), name.size() + 1);
  *resultlen = static_cast<int>(name.size());
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Comm_create)
MPISIM_ALIAS(Comm_create_group)
MPISIM_ALIAS(Comm_split_type)
MPISIM_ALIAS(Comm_idup)
MPISIM_ALIAS(Comm_set_name)
MPISIM_ALIAS(Comm_get_name)
