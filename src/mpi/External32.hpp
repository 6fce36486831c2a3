// The "external32" data representation (MPI-3.1 section 13.5.2), shared by MPI_Pack_external and MPI-IO views:
// every element big-endian, at the sizes of the standard's table 13.2. Elements whose external32 size differs from
// this machine's are not converted (their callers refuse them).
#pragma once

#include "mpi/Datatype.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace mpisim::mpi {

// Whether `element` has the same size in external32 as on this machine (long is 4 bytes there, wchar_t 2, long
// double a 16-byte IEEE quadruple where this machine has an 80-bit extended).
bool same_size_in_external32(Element element);

// The first element of `type`'s signature that external32 sizes differently, if any.
std::optional<Element> first_resized_in_external32(const Datatype& type);

// Why `type` cannot be converted ("MPI_LONG has another size in external32 ..."), or nothing when it can.
std::optional<std::string> external32_refusal(const Datatype& type);

// Turns `count` packed instances of `type` (native bytes, type-map order) into external32, or back: the same swaps
// both ways. Every element of `type` must have the same size in both.
void swap_external32(std::byte* data, size_t count, const Datatype& type);

} // namespace mpisim::mpi
