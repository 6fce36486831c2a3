// Argument resolution shared by the API families: handles to runtime objects, with the MPI error class to raise
// when a handle or value is invalid.
#pragma once

#include "online/bindings/Api.hpp"

namespace mpisim::online {

// Each returns MPI_SUCCESS and sets `out`, or the raised error class.
int resolve_comm(Runtime& runtime, MPI_Comm comm, const char* call, const mpi::Communicator*& out);
// resolve_comm(), and MPI_ERR_COMM for an intercommunicator (calls mpisim runs on intracommunicators only).
int resolve_intracomm(Runtime& runtime, MPI_Comm comm, const char* call, const mpi::Communicator*& out);
int resolve_type(Runtime& runtime, MPI_Comm comm, MPI_Datatype type, const char* call, mpi::DatatypePtr& out);
int resolve_op(Runtime& runtime, MPI_Comm comm, MPI_Op op, const char* call, mpi::ReduceOpPtr& out);
int check_count(Runtime& runtime, MPI_Comm comm, int count, const char* call);
// MPI_ERR_OP when a predefined operation is not defined for the datatype's elements (MPI_SUM on MPI_LOGICAL ...).
int check_op_defined(Runtime& runtime, MPI_Comm comm, const mpi::ReduceOp& op, const mpi::Datatype& type,
                     const char* call);
// A peer rank: valid in `comm`, or MPI_PROC_NULL, or (receives) MPI_ANY_SOURCE.
int check_peer(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& c, int peer, bool any_allowed,
               const char* call);
int check_tag(Runtime& runtime, MPI_Comm comm, int tag, bool any_allowed, const char* call);
int check_root(Runtime& runtime, MPI_Comm comm, const mpi::Communicator& c, int root, const char* call);

void fill_status(MPI_Status* status, const mpi::Status& from);
void fill_empty_status(MPI_Status* status); // a request on MPI_PROC_NULL, or MPI_REQUEST_NULL

} // namespace mpisim::online

// Evaluates a check returning an error class, returning it from the enclosing function when it is not success.
#define MPISIM_TRY(expression)                                                                                         \
  do {                                                                                                                 \
    if (int mpisim_error_ = (expression); mpisim_error_ != MPI_SUCCESS)                                                \
      return mpisim_error_;                                                                                            \
  } while (0)
