// The processor's cache line, and early loads by whole lines: the per-message records of thousands of ranks go cold
// while the other ranks run, so the kernel asks for what it is about to read while it does other work.
#pragma once

#include <cstddef>

namespace mpisim::kernel {

inline constexpr size_t kCacheLineBytes = 64; // x86-64 and most ARM servers

// Asks the processor to load the `lines` cache lines from `start`. Only loads: nothing changes, and an address that is
// not mapped does not fault.
inline void prefetch_lines(const void* start, size_t lines)
{
  for (size_t line = 0; line < lines; ++line)
    __builtin_prefetch(static_cast<const char*>(start) + kCacheLineBytes * line);
}

// Asks the processor to load the lines holding the `bytes` bytes from `start`, with intent to write (a block about to
// be constructed in). Only loads, as prefetch_lines().
inline void prefetch_bytes_for_write(const void* start, size_t bytes)
{
  for (size_t offset = 0; offset < bytes; offset += kCacheLineBytes)
    __builtin_prefetch(static_cast<const char*>(start) + offset, 1);
}

} // namespace mpisim::kernel
