// The TI datatype table. Facts (ids, sizes) from SimGrid 3.32's datatypes; the code is ours.
#include "replay/TiDatatypes.hpp"

#include "common/Errors.hpp"

#include <array>
#include <string>

namespace mpisim::replay {

namespace {

struct DatatypeInfo {
  std::string_view name;
  size_t size;
};

// SimGrid 3.32's predefined datatypes by id, sizes on x86-64 Linux. Ids are what `Datatype::decode` accepts; the
// oddities (COMPLEX32 declared with 16 bytes, INTEGER1 with 4) are SimGrid's and kept so replays match it.
constexpr std::array<DatatypeInfo, 61> kDatatypes = {{
    {"MPI_DATATYPE_NULL", 0},
    {"MPI_DOUBLE", 8}, // 0
    {"MPI_INT", 4},
    {"MPI_CHAR", 1},
    {"MPI_SHORT", 2},
    {"MPI_LONG", 8},
    {"MPI_FLOAT", 4}, // 5
    {"MPI_BYTE", 1},
    {"MPI_LONG_LONG", 8},
    {"MPI_SIGNED_CHAR", 1},
    {"MPI_UNSIGNED_CHAR", 1},
    {"MPI_UNSIGNED_SHORT", 2}, // 10
    {"MPI_UNSIGNED", 4},
    {"MPI_UNSIGNED_LONG", 8},
    {"MPI_UNSIGNED_LONG_LONG", 8},
    {"MPI_LONG_DOUBLE", 16},
    {"MPI_WCHAR", 4}, // 15
    {"MPI_C_BOOL", 1},
    {"MPI_INT8_T", 1},
    {"MPI_INT16_T", 2},
    {"MPI_INT32_T", 4},
    {"MPI_INT64_T", 8}, // 20
    {"MPI_UINT8_T", 1},
    {"MPI_UINT16_T", 2},
    {"MPI_UINT32_T", 4},
    {"MPI_UINT64_T", 8},
    {"MPI_C_FLOAT_COMPLEX", 8}, // 25
    {"MPI_C_DOUBLE_COMPLEX", 16},
    {"MPI_C_LONG_DOUBLE_COMPLEX", 32},
    {"MPI_AINT", 8},
    {"MPI_OFFSET", 8},
    {"MPI_FLOAT_INT", 8}, // 30
    {"MPI_LONG_INT", 16},
    {"MPI_DOUBLE_INT", 16},
    {"MPI_SHORT_INT", 8},
    {"MPI_2INT", 8},
    {"MPI_2FLOAT", 8}, // 35
    {"MPI_2DOUBLE", 16},
    {"MPI_2LONG", 16},
    {"MPI_REAL", 4},
    {"MPI_REAL4", 4},
    {"MPI_REAL8", 8}, // 40
    {"MPI_REAL16", 16},
    {"MPI_COMPLEX8", 8},
    {"MPI_COMPLEX16", 16},
    {"MPI_COMPLEX32", 16},
    {"MPI_INTEGER1", 4}, // 45
    {"MPI_INTEGER2", 2},
    {"MPI_INTEGER4", 4},
    {"MPI_INTEGER8", 8},
    {"MPI_INTEGER16", 16},
    {"MPI_LONG_DOUBLE_INT", 32}, // 50
    {"MPI_CXX_BOOL", 1},
    {"MPI_CXX_FLOAT_COMPLEX", 8},
    {"MPI_CXX_DOUBLE_COMPLEX", 16},
    {"MPI_CXX_LONG_DOUBLE_COMPLEX", 32},
    {"MPI_UB", 0}, // 55
    {"MPI_LB", 0},
    {"MPI_PACKED", 1},
    {"MPI_PTR", 8},
    {"MPI_COUNT", 8},
}};
static_assert(kLastDatatypeId == kFirstDatatypeId + static_cast<int>(kDatatypes.size()) - 1);
static_assert(kDatatypes[kDatatypeDouble - kFirstDatatypeId].name == "MPI_DOUBLE");
static_assert(kDatatypes[kDatatypeByte - kFirstDatatypeId].name == "MPI_BYTE");

const DatatypeInfo& known_datatype(int id)
{
  if (not is_known_datatype(id))
    throw InputError("unknown TI datatype id " + std::to_string(id) + " (known ids: " +
                     std::to_string(kFirstDatatypeId) + " to " + std::to_string(kLastDatatypeId) + ")");
  return kDatatypes[static_cast<size_t>(id - kFirstDatatypeId)];
}

constexpr std::array<uint8_t, kDatatypes.size()> sizes_of_datatypes()
{
  std::array<uint8_t, kDatatypes.size()> sizes{};
  for (size_t i = 0; i < kDatatypes.size(); ++i)
    sizes[i] = static_cast<uint8_t>(kDatatypes[i].size);
  return sizes;
}

} // namespace

const std::array<uint8_t, kLastDatatypeId - kFirstDatatypeId + 1> detail::kDatatypeSizes = sizes_of_datatypes();

size_t datatype_size(int ti_datatype_id)
{
  return known_datatype(ti_datatype_id).size;
}

std::string_view datatype_name(int ti_datatype_id)
{
  return known_datatype(ti_datatype_id).name;
}

} // namespace mpisim::replay
