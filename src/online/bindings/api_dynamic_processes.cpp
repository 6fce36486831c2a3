// Process management (MPI-3.1 chapter 10): MPI_Comm_get_parent. Every rank of a simulated job is started by
// `mpisim run -np`, none by MPI_Comm_spawn (which mpisim does not provide, nor the port and name functions), so no
// rank has a parent.
#include "online/bindings/Arguments.hpp"

using namespace mpisim::online;

extern "C" int PMPI_Comm_get_parent(MPI_Comm* parent)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, parent != nullptr, MPI_COMM_WORLD, MPI_ERR_ARG, "null parent");
  *parent = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Comm_get_parent)
