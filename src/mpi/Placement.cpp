#include "mpi/Placement.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <fstream>
#include <numeric>

namespace mpisim::mpi {

namespace {
std::vector<platform::HostId> wrap(const std::vector<platform::HostId>& slots, int ranks)
{
  std::vector<platform::HostId> placement(ranks);
  for (int rank = 0; rank < ranks; ++rank)
    placement[rank] = slots[rank % slots.size()];
  return placement;
}

std::string trim(const std::string& text)
{
  size_t begin = text.find_first_not_of(" \t\r");
  size_t end = text.find_last_not_of(" \t\r");
  return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
}
} // namespace

std::vector<platform::HostId> place_ranks(const platform::Platform& platform, int ranks, PlacementOrder order)
{
  const auto& hosts = platform.hosts();
  if (hosts.empty())
    throw InputError("the platform has no host to run ranks on");
  std::vector<platform::HostId> slots(hosts.size());
  std::iota(slots.begin(), slots.end(), 0);
  if (order == PlacementOrder::Sorted)
    std::stable_sort(slots.begin(), slots.end(),
                     [&](platform::HostId a, platform::HostId b) { return hosts[a].name < hosts[b].name; });
  return wrap(slots, ranks);
}

std::vector<platform::HostId> place_ranks_from_hostfile(const platform::Platform& platform, int ranks,
                                                        const std::string& hostfile)
{
  std::ifstream in(hostfile);
  if (not in)
    throw InputError(hostfile, 0, "cannot open the hostfile");
  std::vector<platform::HostId> slots;
  std::string line;
  long number = 0;
  while (std::getline(in, line)) { // getline also returns a last line that has no final newline
    ++number;
    line = trim(line);
    if (line.empty() || line[0] == '#')
      continue;
    long copies = 1;
    if (size_t colon = line.find(':'); colon != std::string::npos) {
      std::string count = trim(line.substr(colon + 1));
      char* end = nullptr;
      copies = std::strtol(count.c_str(), &end, 10);
      if (count.empty() || *end != '\0' || copies < 1)
        throw InputError(hostfile, number, "bad slot count '" + count + "' (expected host or host:N with N >= 1)");
      line = trim(line.substr(0, colon));
    }
    auto host = platform.find_host(line);
    if (not host)
      throw InputError(hostfile, number, "unknown host '" + line + "' (not in the platform)");
    slots.insert(slots.end(), copies, *host);
  }
  if (slots.empty())
    throw InputError(hostfile, 0, "the hostfile lists no host");
  return wrap(slots, ranks);
}

} // namespace mpisim::mpi
