// Packing: MPI_Pack, MPI_Unpack, MPI_Pack_size (the native representation: the type's bytes in type-map order, as
// messages carry them), and MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size ("external32": every
// element big-endian, MPI-3.1 section 13.5.2).
#include "online/bindings/Arguments.hpp"

#include "mpi/External32.hpp"

#include <climits>
#include <cstring>
#include <optional>
#include <vector>

using namespace mpisim::online;
using mpisim::mpi::Datatype;
using mpisim::mpi::DatatypePtr;
using mpisim::mpi::Element;

namespace {

// Checks the buffer window [position, position + bytes) of a buffer of `capacity` bytes.
template <typename Position>
int check_window(Runtime& runtime, MPI_Comm comm, const Position* position, Position capacity, size_t bytes,
                 const char* call)
{
  if (position == nullptr || *position < 0 || capacity < 0)
    return raise_error(runtime, comm, MPI_ERR_ARG, call, "invalid position or buffer size");
  if (static_cast<size_t>(*position) + bytes > static_cast<size_t>(capacity))
    return raise_error(runtime, comm, MPI_ERR_TRUNCATE, call,
                       std::to_string(bytes) + " bytes at position " + std::to_string(*position) +
                           " do not fit in a buffer of " + std::to_string(capacity));
  return MPI_SUCCESS;
}

// external32 -----------------------------------------------------------------------------------------------------

int check_external32(Runtime& runtime, const char* datarep, const Datatype& type, const char* call)
{
  if (datarep == nullptr || std::strcmp(datarep, "external32") != 0)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_DATAREP, call,
                       std::string("data representation '") + (datarep ? datarep : "(null)") +
                           "' (only \"external32\" is defined)");
  if (const std::optional<std::string> refusal = mpisim::mpi::external32_refusal(type))
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_TYPE, call, *refusal);
  return MPI_SUCCESS;
}

} // namespace

extern "C" int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype type, void* outbuf, int outsize, int* position,
                         MPI_Comm comm)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  DatatypePtr t;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Pack", c));
  MPISIM_TRY(resolve_type(runtime, comm, type, "MPI_Pack", t));
  MPISIM_TRY(check_count(runtime, comm, incount, "MPI_Pack"));
  const size_t bytes = t->packed_size(incount);
  MPISIM_TRY(check_window(runtime, comm, position, outsize, bytes, "MPI_Pack"));
  t->pack(inbuf, incount, static_cast<std::byte*>(outbuf) + *position);
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype type,
                           MPI_Comm comm)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  DatatypePtr t;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Unpack", c));
  MPISIM_TRY(resolve_type(runtime, comm, type, "MPI_Unpack", t));
  MPISIM_TRY(check_count(runtime, comm, outcount, "MPI_Unpack"));
  const size_t bytes = t->packed_size(outcount);
  MPISIM_TRY(check_window(runtime, comm, position, insize, bytes, "MPI_Unpack"));
  t->unpack(static_cast<const std::byte*>(inbuf) + *position, outcount, outbuf);
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int* size)
{
  Runtime& runtime = Runtime::get();
  const mpisim::mpi::Communicator* c = nullptr;
  DatatypePtr t;
  MPISIM_TRY(resolve_comm(runtime, comm, "MPI_Pack_size", c));
  MPISIM_TRY(resolve_type(runtime, comm, type, "MPI_Pack_size", t));
  MPISIM_TRY(check_count(runtime, comm, incount, "MPI_Pack_size"));
  const size_t bytes = t->packed_size(incount);
  MPISIM_CHECK(runtime, bytes <= INT_MAX, comm, MPI_ERR_ARG, std::to_string(bytes) + " bytes do not fit in an int");
  *size = static_cast<int>(bytes);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype type, void* outbuf,
                                  MPI_Aint outsize, MPI_Aint* position)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Pack_external", t));
  MPISIM_TRY(check_count(runtime, MPI_COMM_WORLD, incount, "MPI_Pack_external"));
  MPISIM_TRY(check_external32(runtime, datarep, *t, "MPI_Pack_external"));
  const size_t bytes = t->packed_size(incount);
  MPISIM_TRY(check_window(runtime, MPI_COMM_WORLD, position, outsize, bytes, "MPI_Pack_external"));
  std::byte* out = static_cast<std::byte*>(outbuf) + *position;
  t->pack(inbuf, incount, out);
  mpisim::mpi::swap_external32(out, static_cast<size_t>(incount), *t);
  *position += static_cast<MPI_Aint>(bytes);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position,
                                    void* outbuf, int outcount, MPI_Datatype type)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Unpack_external", t));
  MPISIM_TRY(check_count(runtime, MPI_COMM_WORLD, outcount, "MPI_Unpack_external"));
  MPISIM_TRY(check_external32(runtime, datarep, *t, "MPI_Unpack_external"));
  const size_t bytes = t->packed_size(outcount);
  MPISIM_TRY(check_window(runtime, MPI_COMM_WORLD, position, insize, bytes, "MPI_Unpack_external"));
  const auto* in = static_cast<const std::byte*>(inbuf) + *position;
  std::vector<std::byte> native(in, in + bytes);
  mpisim::mpi::swap_external32(native.data(), static_cast<size_t>(outcount), *t);
  t->unpack(native.data(), outcount, outbuf);
  *position += static_cast<MPI_Aint>(bytes);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype type, MPI_Aint* size)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Pack_external_size", t));
  MPISIM_TRY(check_count(runtime, MPI_COMM_WORLD, incount, "MPI_Pack_external_size"));
  MPISIM_TRY(check_external32(runtime, datarep, *t, "MPI_Pack_external_size"));
  *size = static_cast<MPI_Aint>(t->packed_size(incount));
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Pack)
MPISIM_ALIAS(Unpack)
MPISIM_ALIAS(Pack_size)
MPISIM_ALIAS(Pack_external)
MPISIM_ALIAS(Unpack_external)
MPISIM_ALIAS(Pack_external_size)
