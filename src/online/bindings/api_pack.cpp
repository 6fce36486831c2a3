// Packing: MPI_Pack, MPI_Unpack, MPI_Pack_size (the native representation: the type's bytes in type-map order, as
// messages carry them), and MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size ("external32": every
// element big-endian, MPI-3.1 section 13.5.2).
#include "online/bindings/Arguments.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
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

// The bytes of one element that are swapped as a unit: complex halves, and the value then the int of pair types.
std::vector<size_t> swap_units(Element element)
{
  switch (element) {
  case Element::FloatComplex:
  case Element::CxxFloatComplex:
  case Element::FortranComplex:
  case Element::Complex8:
  case Element::FortranTwoInteger:
  case Element::FortranTwoReal: return {4, 4};
  case Element::DoubleComplex:
  case Element::CxxDoubleComplex:
  case Element::FortranDoubleComplex:
  case Element::Complex16:
  case Element::FortranTwoDoublePrecision: return {8, 8};
  case Element::FloatInt:
  case Element::DoubleInt:
  case Element::TwoInt:
  case Element::ShortInt: return {mpisim::mpi::element_size(element) - sizeof(int), sizeof(int)};
  default: return {mpisim::mpi::element_size(element)};
  }
}

// Elements whose external32 size differs from this machine's (MPI-3.1 table 13.2: long is 4 bytes, wchar_t 2,
// long double a 16-byte IEEE quadruple): not converted.
bool external32_supported(Element element)
{
  switch (element) {
  case Element::Long:
  case Element::UnsignedLong:
  case Element::WChar:
  case Element::LongDouble:
  case Element::LongDoubleComplex:
  case Element::CxxLongDoubleComplex:
  case Element::LongInt:
  case Element::LongDoubleInt:
  case Element::Real16: // a quadruple in external32, an 80-bit extended in this machine's long double
  case Element::Complex32: return false;
  default: return true;
  }
}

int check_external32(Runtime& runtime, const char* datarep, const Datatype& type, const char* call)
{
  if (datarep == nullptr || std::strcmp(datarep, "external32") != 0)
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_DATAREP, call,
                       std::string("data representation '") + (datarep ? datarep : "(null)") +
                           "' (only \"external32\" is defined)");
  for (const Datatype::Run& run : type.signature())
    if (not external32_supported(run.element))
      return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                         std::string(mpisim::mpi::element_name(run.element)) +
                             " has another size in external32 than on this machine: not supported by mpisim");
  return MPI_SUCCESS;
}

// Turns packed native bytes into external32 or back (the same swaps both ways).
void swap_to_big_endian(std::byte* data, size_t count, const Datatype& type)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (size_t i = 0; i < count; ++i)
    for (const Datatype::Run& run : type.signature()) {
      const std::vector<size_t> units = swap_units(run.element);
      for (size_t k = 0; k < run.count; ++k)
        for (size_t unit : units) {
          std::reverse(data, data + unit);
          data += unit;
        }
    }
#endif
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
  swap_to_big_endian(out, incount, *t);
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
  swap_to_big_endian(native.data(), outcount, *t);
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
