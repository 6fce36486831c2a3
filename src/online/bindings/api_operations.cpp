// Reduction operations: user-defined ones (MPI_Op_create/free), MPI_Op_commutative, MPI_Reduce_local.
#include "online/bindings/Arguments.hpp"

#include "common/Errors.hpp"

using namespace mpisim::online;

extern "C" int PMPI_Op_create(MPI_User_function* function, int commute, MPI_Op* op)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, function != nullptr, MPI_COMM_WORLD, MPI_ERR_ARG, "null user function");
  auto call_user = [function, &runtime](const void* in, void* inout, int count, const mpisim::mpi::Datatype& type) {
    // The user function receives the handle of the call's datatype (predefined, or one the application built).
    MPI_Datatype handle = runtime.datatypes().handle_of(type);
    function(const_cast<void*>(in), inout, &count, &handle);
  };
  *op = runtime.operations().add(mpisim::mpi::ReduceOp::user(call_user, commute != 0));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Op_free(MPI_Op* op)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, *op > MPI_NO_OP && runtime.operations().find(*op) != nullptr, MPI_COMM_WORLD, MPI_ERR_OP,
               "cannot free operation " + std::to_string(*op));
  runtime.operations().release(*op);
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Op_commutative(MPI_Op op, int* commute)
{
  Runtime& runtime = Runtime::get();
  mpisim::mpi::ReduceOpPtr o;
  MPISIM_TRY(resolve_op(runtime, MPI_COMM_WORLD, op, "MPI_Op_commutative", o));
  *commute = o->commutative();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype type, MPI_Op op)
{
  ApiScope scope;
  Runtime& runtime = scope.runtime();
  mpisim::mpi::DatatypePtr t;
  mpisim::mpi::ReduceOpPtr o;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Reduce_local", t));
  MPISIM_TRY(resolve_op(runtime, MPI_COMM_WORLD, op, "MPI_Reduce_local", o));
  MPISIM_TRY(check_count(runtime, MPI_COMM_WORLD, count, "MPI_Reduce_local"));
  try {
    o->apply(inbuf, inoutbuf, static_cast<size_t>(count), *t);
  } catch (const mpisim::InputError& error) { // the operation is not defined for these elements
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Reduce_local", error.what());
  }
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Op_create)
MPISIM_ALIAS(Op_free)
MPISIM_ALIAS(Op_commutative)
MPISIM_ALIAS(Reduce_local)
