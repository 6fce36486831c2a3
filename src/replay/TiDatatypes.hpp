// The datatype ids of SimGrid time-independent (TI) traces and their sizes: what turns a trace's element counts into
// the bytes the replay moves.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mpisim::replay {

// TI datatype ids (SimGrid 3.32 `Datatype::decode`): the two defaults a rank's `init` line chooses between.
inline constexpr int8_t kDatatypeDouble = 0; // MPI_DOUBLE, default after `init <anything>`
inline constexpr int8_t kDatatypeByte = 6;   // MPI_BYTE, default after a bare `init` (and before any init)

// The range of known ids.
inline constexpr int kFirstDatatypeId = -1;
inline constexpr int kLastDatatypeId = 59;

// Size in bytes of a TI datatype id, from SimGrid 3.32's table of predefined datatypes on x86-64 (ids -1..59; -1 is
// MPI_DATATYPE_NULL, 55 and 56 are MPI_UB and MPI_LB: size 0). Unknown id: InputError naming it.
size_t datatype_size(int ti_datatype_id);
// "MPI_DOUBLE", ... ; unknown id: InputError.
std::string_view datatype_name(int ti_datatype_id);
constexpr bool is_known_datatype(int ti_datatype_id)
{
  return ti_datatype_id >= kFirstDatatypeId && ti_datatype_id <= kLastDatatypeId;
}

namespace detail {
// The sizes of the known ids, from id kFirstDatatypeId on (TiDatatypes.cpp's table).
extern const std::array<uint8_t, kLastDatatypeId - kFirstDatatypeId + 1> kDatatypeSizes;
} // namespace detail

// datatype_size of an id already checked known, inline and without the check: the trace parser's fast path, once per
// point-to-point line.
inline size_t known_datatype_size(int ti_datatype_id)
{
  return detail::kDatatypeSizes[static_cast<size_t>(ti_datatype_id - kFirstDatatypeId)];
}

} // namespace mpisim::replay
