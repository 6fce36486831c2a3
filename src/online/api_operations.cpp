// User-defined reduction operations (MPI_Op_create/free).
#include "online/Arguments.hpp"

using namespace mpisim::online;

extern "C" int PMPI_Op_create(MPI_User_function* function, int commute, MPI_Op* op)
{
  MPISIM_CHECK(function != nullptr, MPI_COMM_WORLD, MPI_ERR_ARG, "null user function");
  auto call_user = [function](const void* in, void* inout, int count, const mpisim::mpi::Datatype& type) {
    // The user function receives the handle of the call's datatype (predefined, or one the application built).
    MPI_Datatype handle = Runtime::get().datatype_handle(type);
    function(const_cast<void*>(in), inout, &count, &handle);
  };
  *op = Runtime::get().add_op(mpisim::mpi::ReduceOp::user(call_user, commute != 0));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Op_free(MPI_Op* op)
{
  MPISIM_CHECK(*op > MPI_NO_OP && Runtime::get().op(*op) != nullptr, MPI_COMM_WORLD, MPI_ERR_OP,
               "cannot free operation " + std::to_string(*op));
  Runtime::get().release_op(*op);
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Op_create)
MPISIM_ALIAS(Op_free)
