// The datatypes and reduction operations behind MPI_Datatype and MPI_Op handles: the predefined ones (handles 1.. in
// mpi::Element and mpi::ReduceOperation order, as include/mpi.h numbers them) and those the application makes.
// Handles are shared by all ranks; a derived type or user operation lives on after its handle is freed while
// messages, requests or calls still hold it (shared pointers).
#pragma once

#include "online/runtime/HandleTable.hpp"

#include "mpi/Datatype.hpp"
#include "mpi/ReduceOp.hpp"

namespace mpisim::online {

class Datatypes {
public:
  Datatypes();

  mpi::DatatypePtr find(int handle) const; // null when `handle` names no datatype
  // MPI_SUCCESS and `out` set, or MPI_ERR_TYPE ("invalid datatype <handle>") raised through `comm`'s handler.
  int resolve(Runtime& runtime, int handle, int comm, const char* call, mpi::DatatypePtr& out);
  int add(mpi::DatatypePtr type);
  int handle_of(const mpi::Datatype& type) const; // 0 when it has no handle
  void release(int handle);                       // predefined types are never freed

private:
  HandleTable<mpi::DatatypePtr, HandleStorage::Dense> table_;
};

class Operations {
public:
  Operations();

  mpi::ReduceOpPtr find(int handle) const; // null when `handle` names no operation
  // MPI_SUCCESS and `out` set, or MPI_ERR_OP ("invalid operation <handle>") raised through `comm`'s handler.
  int resolve(Runtime& runtime, int handle, int comm, const char* call, mpi::ReduceOpPtr& out);
  int add(mpi::ReduceOpPtr op);
  void release(int handle); // predefined operations are never freed

private:
  HandleTable<mpi::ReduceOpPtr, HandleStorage::Dense> table_;
};

} // namespace mpisim::online
