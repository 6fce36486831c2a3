// Input files (platforms, traces, hostfiles, parameter files) must be regular files: /dev/zero would be read until
// memory runs out, a FIFO would block, a directory would fail late with a confusing message.
#pragma once

#include <string>

namespace mpisim {

// Throws InputError("PATH: not a regular file (a directory): WHAT must be a file") when `path` exists and is not a
// regular file (symbolic links are followed). A missing path is left to the caller's "cannot open" message.
void require_regular_file(const std::string& path, const std::string& what);

} // namespace mpisim
