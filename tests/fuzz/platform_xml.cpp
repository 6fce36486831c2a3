// Fuzz target: a SimGrid platform file through the XML loader (platform/XmlLoader.cpp: zones, clusters and their
// topologies, routes, units, <config>), then the questions a simulation asks of it (PlatformUse.hpp). The size checks
// stay in the path, under a small memory cap.
#include "FuzzInput.hpp"
#include "PlatformUse.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
  mpisim::platform::cap_platform_memory(mpisim::fuzz::kPlatformMemory);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  using namespace mpisim;
  const std::string path = fuzz::write_scratch_file("platform.xml", fuzz::input_text(data, size));
  fuzz::read_input([&] {
    const std::unique_ptr<platform::Platform> platform = platform::load_platform(path);
    fuzz::use_platform(*platform);
  });
  return 0;
}
