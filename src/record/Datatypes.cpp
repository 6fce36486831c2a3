#include "record/Datatypes.hpp"

namespace mpisim::record {

namespace {

struct Known {
  MPI_Datatype type;
  int id;
  int simgrid_size; // bytes, as SimGrid 3.32 declares it on x86-64 Linux
};

// SimGrid 3.32's ids (the same table as src/replay/TiDatatypes.cpp). Types that MPI-3 leaves
// optional are guarded: both Open MPI and MPICH define every datatype name as a macro. Ids SimGrid gives to
// non-standard names (MPI_2FLOAT 35, MPI_2DOUBLE 36, MPI_2LONG 37, MPI_PTR 58) and the removed MPI_LB/MPI_UB are not
// produced.
Known known_types[] = {
    {MPI_DOUBLE, 0, 8},
    {MPI_INT, 1, 4},
    {MPI_CHAR, 2, 1},
    {MPI_SHORT, 3, 2},
    {MPI_LONG, 4, 8},
    {MPI_FLOAT, 5, 4},
    {MPI_BYTE, 6, 1},
    {MPI_LONG_LONG, 7, 8},
    {MPI_SIGNED_CHAR, 8, 1},
    {MPI_UNSIGNED_CHAR, 9, 1},
    {MPI_UNSIGNED_SHORT, 10, 2},
    {MPI_UNSIGNED, 11, 4},
    {MPI_UNSIGNED_LONG, 12, 8},
    {MPI_UNSIGNED_LONG_LONG, 13, 8},
    {MPI_LONG_DOUBLE, 14, 16},
    {MPI_WCHAR, 15, 4},
    {MPI_C_BOOL, 16, 1},
    {MPI_INT8_T, 17, 1},
    {MPI_INT16_T, 18, 2},
    {MPI_INT32_T, 19, 4},
    {MPI_INT64_T, 20, 8},
    {MPI_UINT8_T, 21, 1},
    {MPI_UINT16_T, 22, 2},
    {MPI_UINT32_T, 23, 4},
    {MPI_UINT64_T, 24, 8},
    {MPI_C_FLOAT_COMPLEX, 25, 8},
    {MPI_C_DOUBLE_COMPLEX, 26, 16},
    {MPI_C_LONG_DOUBLE_COMPLEX, 27, 32},
    {MPI_AINT, 28, 8},
    {MPI_OFFSET, 29, 8},
    {MPI_FLOAT_INT, 30, 8},
    {MPI_LONG_INT, 31, 16},
    {MPI_DOUBLE_INT, 32, 16},
    {MPI_SHORT_INT, 33, 8},
    {MPI_2INT, 34, 8},
#ifdef MPI_REAL
    {MPI_REAL, 38, 4},
#endif
#ifdef MPI_REAL4
    {MPI_REAL4, 39, 4},
#endif
#ifdef MPI_REAL8
    {MPI_REAL8, 40, 8},
#endif
#ifdef MPI_REAL16
    {MPI_REAL16, 41, 16},
#endif
#ifdef MPI_COMPLEX8
    {MPI_COMPLEX8, 42, 8},
#endif
#ifdef MPI_COMPLEX16
    {MPI_COMPLEX16, 43, 16},
#endif
#ifdef MPI_COMPLEX32
    {MPI_COMPLEX32, 44, 16},
#endif
#ifdef MPI_INTEGER1
    {MPI_INTEGER1, 45, 4},
#endif
#ifdef MPI_INTEGER2
    {MPI_INTEGER2, 46, 2},
#endif
#ifdef MPI_INTEGER4
    {MPI_INTEGER4, 47, 4},
#endif
#ifdef MPI_INTEGER8
    {MPI_INTEGER8, 48, 8},
#endif
#ifdef MPI_INTEGER16
    {MPI_INTEGER16, 49, 16},
#endif
    {MPI_LONG_DOUBLE_INT, 50, 32},
    {MPI_CXX_BOOL, 51, 1},
    {MPI_CXX_FLOAT_COMPLEX, 52, 8},
    {MPI_CXX_DOUBLE_COMPLEX, 53, 16},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, 54, 32},
    {MPI_PACKED, 57, 1},
    {MPI_COUNT, 59, 8},
};

} // namespace

void Datatypes::init()
{
  // Aliases (MPI_LONG_LONG and MPI_LONG_LONG_INT, or an optional type the library maps to another handle) keep the
  // first id listed.
  for (const Known& known : known_types) {
    if (known.type == MPI_DATATYPE_NULL)
      continue;
    int size = 0;
    if (PMPI_Type_size(known.type, &size) != MPI_SUCCESS || size != known.simgrid_size)
      continue;
    ids_.emplace(known.type, known.id);
  }
}

TiCount Datatypes::convert(long long count, MPI_Datatype type) const
{
  auto found = ids_.find(type);
  if (found != ids_.end())
    return {count, found->second};
  return {bytes(count, type), kByte};
}

long long Datatypes::bytes(long long count, MPI_Datatype type)
{
  int size = 0;
  if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
    return 0;
  return count * size;
}

} // namespace mpisim::record
