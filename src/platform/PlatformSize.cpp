#include "platform/PlatformSize.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

#include <unistd.h>

namespace mpisim::platform {

namespace {

// MemAvailable from /proc/meminfo, else the physical memory.
uint64_t available_memory()
{
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:")
      return kib * 1024;
    meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

uint64_t platform_memory_cap = 0; // cap_platform_memory(): set once by a tool, before any platform is built

// What a platform may be sized against: the memory available, or the cap when it is lower.
uint64_t memory_for_platforms()
{
  const uint64_t available = available_memory();
  return platform_memory_cap > 0 ? std::min(available, platform_memory_cap) : available;
}

std::string gibibytes(double bytes)
{
  char text[32];
  std::snprintf(text, sizeof text, "%.3g GiB", bytes / (1024.0 * 1024 * 1024));
  return text;
}

} // namespace

uint64_t platform_element_limit()
{
  const uint64_t ids = std::numeric_limits<uint32_t>::max() - 1;               // HostId, LinkId, PointId
  return std::min(ids, memory_for_platforms() / 2 / kBytesPerPlatformElement); // the other half: for the simulation
}

void cap_platform_memory(uint64_t bytes)
{
  platform_memory_cap = bytes;
}

void check_host_count(uint64_t hosts, const std::string& description, uint64_t elements)
{
  elements = std::max(elements, hosts);
  if (elements <= platform_element_limit())
    return;
  const auto count = [](uint64_t n) {
    return n == std::numeric_limits<uint64_t>::max() ? std::string("more than 10^19") : std::to_string(n);
  };
  const std::string links = elements > hosts ? " (" + count(elements) + " hosts and links)" : "";
  throw InputError("", 0,
                   description + " has " + count(hosts) + " hosts" + links + ", which would need about " +
                       gibibytes(static_cast<double>(elements) * kBytesPerPlatformElement) +
                       " of memory; a platform may take half of the " +
                       gibibytes(static_cast<double>(memory_for_platforms())) + " available");
}

uint64_t saturating_product(uint64_t a, uint64_t b)
{
  uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? std::numeric_limits<uint64_t>::max() : product;
}

uint64_t saturating_sum(uint64_t a, uint64_t b)
{
  uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<uint64_t>::max() : sum;
}

} // namespace mpisim::platform
