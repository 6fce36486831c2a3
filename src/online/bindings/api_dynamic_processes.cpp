// Process management (MPI-3.1 chapter 10): MPI_Comm_get_parent and MPI_Comm_disconnect. Every rank of a simulated
// job is started by `mpisim run -np`, none by MPI_Comm_spawn (which mpisim does not provide, nor the port and name
// functions), so no rank has a parent.
#include "online/bindings/Arguments.hpp"
#include "online/objects/CommLifecycle.hpp"

using namespace mpisim::online;

extern "C" int PMPI_Comm_get_parent(MPI_Comm* parent)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, parent != nullptr, MPI_COMM_WORLD, MPI_ERR_ARG, "null parent");
  *parent = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

// MPI-3.1 section 10.5.4: the call waits, inside, for the communication the rank has pending on the communicator
// (its requests not yet seen complete: they stay valid, and a later wait finds them complete), then frees it as
// MPI_Comm_free does. It synchronizes the members no further than those messages do: a rank with nothing pending
// returns at once, as from SMPI's MPI_Comm_disconnect.
extern "C" int PMPI_Comm_disconnect(MPI_Comm* comm)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, comm != nullptr, MPI_COMM_WORLD, MPI_ERR_ARG, "null communicator argument");
  MPISIM_CHECK(runtime, *comm != MPI_COMM_WORLD && *comm != MPI_COMM_SELF && runtime.comm(*comm) != nullptr, *comm,
               MPI_ERR_COMM, "cannot disconnect communicator " + std::to_string(*comm));
  const int handle = *comm;
  MPISIM_TRY(failure_aware(runtime, handle, "MPI_Comm_disconnect", [&]() -> int {
    ApiScope scope(runtime, "MPI_Comm_disconnect");
    scope.rank().waitall(runtime.requests().unfinished_on(scope.world_rank(), handle));
    return MPI_SUCCESS;
  }));
  MPISIM_TRY(free_comm(runtime, handle)); // attribute delete callbacks, name, topology
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Comm_get_parent)
MPISIM_ALIAS(Comm_disconnect)
