// `hierarchy:` platform specs (HierarchySpec.cpp): a hierarchy of networks as the xSim paper configures it, built as
// SimGrid XML with nested zones so that every model runs on it.
#pragma once

#include "platform/Platform.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace mpisim::platform {

// The SimGrid platform file (v4.1) equivalent to `spec` ("hierarchy:16x2x4,lat=...,bw=...").
// Bad specs throw InputError naming the bad part.
std::string hierarchy_platform_xml(std::string_view spec);
std::unique_ptr<Platform> generate_hierarchy(std::string_view spec);

} // namespace mpisim::platform
