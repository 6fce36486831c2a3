// How large a platform may be, decided before it is built: `torus:1000x1000x1000` or `cluster:1000000000` would
// allocate until the process is killed. Every host, router, zone and link costs about kBytesPerPlatformElement
// (its name, its point in the zone tree, its routing entries), so a platform may have as many of them as half the
// memory available when it is built holds (the other half is the simulation's), and never more than 32-bit ids count.
#pragma once

#include <cstdint>
#include <string>

namespace mpisim::platform {

// Measured on generated clusters and tori of 10^5 to 10^6 hosts (resident memory / (hosts + links)), rounded up.
inline constexpr uint64_t kBytesPerPlatformElement = 512;

// The most hosts, routers, zones and links one platform may have here (memory available / 2 / bytes per element,
// or the cap below).
uint64_t platform_element_limit();

// Lowers the memory a platform may take to `bytes` for the rest of the process (0: no cap, the default). For tools
// that build many platforms in one process, such as the fuzz harness (tests/fuzz): the size checks stay in the path,
// with a ceiling small enough that one input cannot take the machine's memory.
void cap_platform_memory(uint64_t bytes);

// Throws InputError("", 0, "DESCRIPTION has N hosts, which would need about X GiB of memory; a platform may take
// half of the Y GiB available")
// when the platform would exceed the limit: `elements` counts its hosts, routers and links as far as the caller knows
// them (at least `hosts`); `description` names the spec or the cluster.
void check_host_count(uint64_t hosts, const std::string& description, uint64_t elements = 0);

// a * b and a + b, saturating at UINT64_MAX instead of wrapping around (shape products: a huge shape must stay huge).
uint64_t saturating_product(uint64_t a, uint64_t b);
uint64_t saturating_sum(uint64_t a, uint64_t b);

} // namespace mpisim::platform
