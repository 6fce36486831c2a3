#include "online/objects/Datatypes.hpp"

namespace mpisim::online {

namespace {
// MPI_CHAR (1) .. MPI_COMPLEX32 (63), in mpi::Element order, then the MPI-1 bound markers.
constexpr int kPredefinedElements = static_cast<int>(mpi::Element::Complex32) + 1;
constexpr int kPredefinedTypes = MPI_UB;
constexpr int kPredefinedOps = 14; // MPI_MAX (1) .. MPI_NO_OP (14), in mpi::ReduceOperation order
static_assert(kPredefinedElements == MPI_COMPLEX32 && MPI_LB == MPI_COMPLEX32 + 1 && MPI_UB == MPI_LB + 1,
              "include/mpi.h numbers the predefined datatypes in mpi::Element order, then MPI_LB and MPI_UB");
} // namespace

Datatypes::Datatypes() : table_({MPI_ERR_TYPE, "datatype"}, kPredefinedTypes + 1)
{
  for (int element = 0; element < kPredefinedElements; ++element)
    table_.insert_predefined(element + 1, mpi::Datatype::predefined(static_cast<mpi::Element>(element)));
  table_.insert_predefined(MPI_LB, mpi::Datatype::lower_bound_marker());
  table_.insert_predefined(MPI_UB, mpi::Datatype::upper_bound_marker());
}

mpi::DatatypePtr Datatypes::find(int handle) const
{
  const mpi::DatatypePtr* type = table_.find(handle);
  return type != nullptr ? *type : nullptr;
}

int Datatypes::resolve(Runtime& runtime, int handle, int comm, const char* call, mpi::DatatypePtr& out)
{
  out = find(handle);
  return out != nullptr ? MPI_SUCCESS : table_.raise_invalid(runtime, handle, comm, call);
}

int Datatypes::add(mpi::DatatypePtr type)
{
  return table_.insert(std::move(type));
}

int Datatypes::handle_of(const mpi::Datatype& type) const
{
  return table_.find_handle([&type](const mpi::DatatypePtr& known) { return known.get() == &type; });
}

void Datatypes::release(int handle)
{
  if (handle > kPredefinedTypes)
    table_.erase(handle);
}

Operations::Operations() : table_({MPI_ERR_OP, "operation"}, kPredefinedOps + 1)
{
  for (int operation = 0; operation < kPredefinedOps; ++operation)
    table_.insert_predefined(operation + 1, mpi::ReduceOp::predefined(static_cast<mpi::ReduceOperation>(operation)));
}

mpi::ReduceOpPtr Operations::find(int handle) const
{
  const mpi::ReduceOpPtr* op = table_.find(handle);
  return op != nullptr ? *op : nullptr;
}

int Operations::resolve(Runtime& runtime, int handle, int comm, const char* call, mpi::ReduceOpPtr& out)
{
  out = find(handle);
  return out != nullptr ? MPI_SUCCESS : table_.raise_invalid(runtime, handle, comm, call);
}

int Operations::add(mpi::ReduceOpPtr op)
{
  return table_.insert(std::move(op));
}

void Operations::release(int handle)
{
  if (handle > kPredefinedOps)
    table_.erase(handle);
}

} // namespace mpisim::online
