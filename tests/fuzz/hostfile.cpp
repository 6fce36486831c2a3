// Fuzz target: a hostfile (mpi/Placement.hpp): read, counted as `mpisim run` counts it for its default -np, and used
// to place ranks on an 8-host cluster (node-0 to node-7), for a job smaller and one larger than the file.
#include "FuzzInput.hpp"
#include "mpi/Placement.hpp"

namespace {

// The placement of `ranks` ranks: one valid host per rank.
void check_placement(const mpisim::platform::Platform& platform, int ranks, const std::string& hostfile)
{
  const std::vector<mpisim::platform::HostId> hosts = mpisim::mpi::place_ranks_from_hostfile(platform, ranks, hostfile);
  if (hosts.size() != static_cast<size_t>(ranks))
    mpisim::fuzz::finding(std::to_string(hosts.size()) + " hosts placed for " + std::to_string(ranks) + " ranks");
  for (mpisim::platform::HostId host : hosts)
    if (host >= platform.hosts().size())
      mpisim::fuzz::finding("rank placed on host " + std::to_string(host));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  using namespace mpisim;
  static const std::unique_ptr<platform::Platform> cluster = platform::generate_platform("cluster:8");
  const std::string path = fuzz::write_scratch_file("hostfile", fuzz::input_text(data, size));
  fuzz::read_input([&] {
    const long long slots = mpi::hostfile_slots(mpi::read_hostfile(path));
    if (slots < 1)
      fuzz::finding("hostfile of " + std::to_string(slots) + " slots");
    check_placement(*cluster, 3, path);
    check_placement(*cluster, 1000, path);
  });
  return 0;
}
