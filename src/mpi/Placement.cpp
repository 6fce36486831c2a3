#include "mpi/Placement.hpp"

#include "common/Errors.hpp"
#include "common/InputFiles.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
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

// "N" of "host:N": 1 to INT_MAX (a number of ranks).
int parse_slot_count(const std::string& count, const std::string& hostfile, long line)
{
  long long slots = 0;
  const auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), slots);
  if (count.empty() || end != count.data() + count.size() ||
      (error != std::errc() && error != std::errc::result_out_of_range))
    throw InputError(hostfile, line, "bad slot count '" + count + "' (expected host or host:N with N >= 1)");
  if (error == std::errc::result_out_of_range || slots < 1 || slots > std::numeric_limits<int>::max())
    throw InputError(hostfile, line,
                     "slot count '" + count + "' is out of range (1 to " +
                         std::to_string(std::numeric_limits<int>::max()) + ")");
  return static_cast<int>(slots);
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

std::vector<HostfileEntry> read_hostfile(const std::string& hostfile)
{
  require_regular_file(hostfile, "hostfile");
  std::ifstream in(hostfile);
  if (not in)
    throw InputError(hostfile, 0, "cannot open the hostfile");
  std::vector<HostfileEntry> entries;
  std::string line;
  long number = 0;
  while (std::getline(in, line)) { // getline also returns a last line that has no final newline
    ++number;
    line = trim(line);
    if (line.empty() || line[0] == '#')
      continue;
    HostfileEntry entry{line, 1, number};
    if (size_t colon = line.find(':'); colon != std::string::npos) {
      entry.slots = parse_slot_count(trim(line.substr(colon + 1)), hostfile, number);
      entry.host = trim(line.substr(0, colon));
    }
    entries.push_back(std::move(entry));
  }
  if (entries.empty())
    throw InputError(hostfile, 0, "the hostfile lists no host");
  return entries;
}

long long hostfile_slots(const std::vector<HostfileEntry>& entries)
{
  long long total = 0;
  for (const HostfileEntry& entry : entries)
    total += entry.slots;
  return total;
}

std::vector<platform::HostId> place_ranks_from_hostfile(const platform::Platform& platform, int ranks,
                                                        const std::string& hostfile)
{
  std::vector<std::pair<platform::HostId, int>> slots; // host, consecutive ranks: never expanded past `ranks`
  for (const HostfileEntry& entry : read_hostfile(hostfile)) {
    auto host = platform.find_host(entry.host);
    if (not host)
      throw InputError(hostfile, entry.line, "unknown host '" + entry.host + "' (not in the platform)");
    slots.emplace_back(*host, entry.slots);
  }
  std::vector<platform::HostId> placement;
  placement.reserve(static_cast<size_t>(std::max(ranks, 0)));
  while (static_cast<int>(placement.size()) < ranks) // wrapping around when the file is shorter than the job
    for (const auto& [host, count] : slots) {
      const int left = ranks - static_cast<int>(placement.size());
      placement.insert(placement.end(), static_cast<size_t>(std::min(count, left)), host);
      if (count >= left)
        break;
    }
  return placement;
}

} // namespace mpisim::mpi
