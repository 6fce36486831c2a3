// strtok with each rank's own position (docs/online.md, "The C library, rank by rank").
#include "online/libc/Caller.hpp"

#include <cstring>

using namespace mpisim::online;

extern "C" char* strtok(char* text, const char* delimiters) noexcept
{
  return strtok_r(text, delimiters, &caller_libc().strtok_next);
}
