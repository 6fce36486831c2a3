// The datatype ids of SimGrid time-independent (TI) traces and their sizes: what turns a trace's element counts into
// the bytes the replay moves.
#pragma once

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
bool is_known_datatype(int ti_datatype_id);

} // namespace mpisim::replay
