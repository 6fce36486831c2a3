// Fuzz target: a generated platform spec, `--platform torus:4x4,bw=10Gbps` (platform/SpecGenerator.cpp, and the
// cluster topologies it shares with the XML loader), then the questions a simulation asks of it (PlatformUse.hpp).
// A spec comes from a command line, so it holds no NUL byte: the input is cut at the first.
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
  std::string_view spec = fuzz::input_text(data, size);
  spec = spec.substr(0, spec.find('\0'));
  fuzz::read_input([&] {
    const std::unique_ptr<platform::Platform> platform = platform::generate_platform(spec);
    fuzz::use_platform(*platform);
  });
  return 0;
}
