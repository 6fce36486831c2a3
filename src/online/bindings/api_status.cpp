// Statuses: MPI_Get_elements(_x), MPI_Status_set_elements(_x), MPI_Status_set_cancelled, MPI_Test_cancelled.
//
// A status keeps the number of bytes received. Counting basic elements walks the datatype's signature (its runs of
// primitive elements): whole elements of the datatype, then the primitives of a partial one; a byte count that
// ends inside a primitive has no element count (MPI_UNDEFINED).
#include "online/bindings/Arguments.hpp"

#include <algorithm>
#include <limits>

using namespace mpisim::online;
using mpisim::mpi::Datatype;

namespace {

size_t primitives_per_element(const Datatype& type)
{
  size_t count = 0;
  for (const Datatype::Run& run : type.signature())
    count += run.count;
  return count;
}

// Basic elements in `bytes` of data of `type`, or -1 when the bytes end inside a primitive.
MPI_Count elements_in(const Datatype& type, long long bytes)
{
  if (type.size() == 0)
    return 0;
  const auto size = static_cast<long long>(type.size());
  MPI_Count elements = (bytes / size) * static_cast<MPI_Count>(primitives_per_element(type));
  long long rest = bytes % size;
  for (const Datatype::Run& run : type.signature()) {
    const auto primitive = static_cast<long long>(mpisim::mpi::element_size(run.element));
    const long long whole = std::min(static_cast<long long>(run.count), rest / primitive);
    elements += whole;
    rest -= whole * primitive;
    if (whole < static_cast<long long>(run.count))
      break;
  }
  return rest == 0 ? elements : -1;
}

// Bytes of the first `elements` basic elements of data of `type` (the inverse of elements_in).
long long bytes_of(const Datatype& type, MPI_Count elements)
{
  const auto per_element = static_cast<MPI_Count>(primitives_per_element(type));
  if (per_element == 0)
    return 0;
  long long bytes = static_cast<long long>(elements / per_element) * static_cast<long long>(type.size());
  MPI_Count rest = elements % per_element;
  for (const Datatype::Run& run : type.signature()) {
    const MPI_Count taken = std::min(rest, static_cast<MPI_Count>(run.count));
    bytes += taken * static_cast<long long>(mpisim::mpi::element_size(run.element));
    rest -= taken;
  }
  return bytes;
}

int resolve(Runtime& runtime, MPI_Datatype type, const char* call, mpisim::mpi::DatatypePtr& out)
{
  return resolve_type(runtime, MPI_COMM_WORLD, type, call, out);
}

} // namespace

namespace {
// MPI_Get_elements_x, and MPI_Get_elements (errors name MPI_Get_elements_x for both, as they did).
int get_elements(Runtime& runtime, const MPI_Status* status, MPI_Datatype type, MPI_Count* count)
{
  mpisim::mpi::DatatypePtr t;
  MPISIM_TRY(resolve(runtime, type, "MPI_Get_elements_x", t));
  const MPI_Count elements = elements_in(*t, status->mpisim_bytes);
  *count = elements < 0 ? MPI_UNDEFINED : elements;
  return MPI_SUCCESS;
}

// MPI_Status_set_elements_x, and MPI_Status_set_elements (errors name MPI_Status_set_elements_x for both).
int set_elements(Runtime& runtime, MPI_Status* status, MPI_Datatype type, MPI_Count count)
{
  mpisim::mpi::DatatypePtr t;
  MPISIM_TRY(resolve(runtime, type, "MPI_Status_set_elements_x", t));
  if (count < 0)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_COUNT, "MPI_Status_set_elements_x",
                       "negative count " + std::to_string(count));
  status->mpisim_bytes = bytes_of(*t, count);
  return MPI_SUCCESS;
}
} // namespace

extern "C" int PMPI_Get_elements_x(const MPI_Status* status, MPI_Datatype type, MPI_Count* count)
{
  Runtime& runtime = Runtime::get();
  return get_elements(runtime, status, type, count);
}

extern "C" int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype type, int* count)
{
  Runtime& runtime = Runtime::get();
  MPI_Count elements = 0;
  MPISIM_TRY(get_elements(runtime, status, type, &elements));
  *count = elements > std::numeric_limits<int>::max() ? MPI_UNDEFINED : static_cast<int>(elements);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype type, MPI_Count count)
{
  Runtime& runtime = Runtime::get();
  return set_elements(runtime, status, type, count);
}

extern "C" int PMPI_Status_set_elements(MPI_Status* status, MPI_Datatype type, int count)
{
  Runtime& runtime = Runtime::get();
  return set_elements(runtime, status, type, count);
}

extern "C" int PMPI_Status_set_cancelled(MPI_Status* status, int flag)
{
  status->mpisim_cancelled = flag != 0;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Test_cancelled(const MPI_Status* status, int* flag)
{
  *flag = status->mpisim_cancelled;
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Get_elements_x)
MPISIM_ALIAS(Get_elements)
MPISIM_ALIAS(Status_set_elements_x)
MPISIM_ALIAS(Status_set_elements)
MPISIM_ALIAS(Status_set_cancelled)
MPISIM_ALIAS(Test_cancelled)
