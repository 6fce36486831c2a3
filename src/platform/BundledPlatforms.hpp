// Platform files of platforms/ compiled into the library, for what must read them wherever mpisim runs: the
// installed package does not ship platforms/, and the generator's disk presets are the storage of two of them.
#pragma once

#include <string_view>

namespace mpisim::platform {

// The text of platforms/<file_name> as it was when the library was built; empty when it is not compiled in
// (the list is BUNDLED_PLATFORMS in src/CMakeLists.txt).
std::string_view bundled_platform_text(std::string_view file_name);

} // namespace mpisim::platform
