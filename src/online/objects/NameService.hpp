// Ports and the name service of MPI's process management (MPI-3.1 sections 10.4.2 and 10.4.4): MPI_Open_port gives a
// rank a port name, MPI_Publish_name binds a service name to a port name for every rank of the run to look up. All
// ranks of a simulated run are one job, so there is one name service and its names are seen by all.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mpisim::online {

class NameService {
public:
  // A new port of `world_rank`: "mpisim-port-<rank>-<n>", n counting the rank's ports from 0.
  std::string open_port(int world_rank);
  // False when `world_rank` has no open port of that name.
  bool close_port(int world_rank, const std::string& port);

  // False when the pair is published already. A service may have several ports (published in turn).
  bool publish(const std::string& service, const std::string& port);
  // False when the pair is not published.
  bool unpublish(const std::string& service, const std::string& port);
  // The first port still published under `service`.
  std::optional<std::string> lookup(const std::string& service) const;

private:
  std::map<int, uint64_t> ports_opened_;                  // by world rank: how many it opened
  std::set<std::pair<int, std::string>> open_ports_;      // (world rank, port)
  std::map<std::string, std::vector<std::string>> names_; // service -> ports, in publication order
};

} // namespace mpisim::online
