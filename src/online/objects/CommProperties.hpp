// What each rank attaches to its view of a communicator besides attributes: a name (MPI_Comm_set_name) and a
// topology (MPI_Cart_create ...). Kept per rank: a name set by one process is not seen by another.
#pragma once

#include "online/objects/Topology.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace mpisim::online {

class CommProperties {
public:
  void set_name(int rank, int comm, std::string name) { names_[{rank, comm}] = std::move(name); }
  const std::string* name(int rank, int comm) const
  {
    auto found = names_.find({rank, comm});
    return found == names_.end() ? nullptr : &found->second;
  }

  void set_topology(int rank, int comm, std::shared_ptr<const Topology> topology)
  {
    topologies_[{rank, comm}] = std::move(topology);
  }
  // Null when the communicator has no topology.
  std::shared_ptr<const Topology> topology(int rank, int comm) const
  {
    auto found = topologies_.find({rank, comm});
    return found == topologies_.end() ? nullptr : found->second;
  }

  // MPI_Comm_free: the rank's view of the communicator is gone.
  void forget(int rank, int comm)
  {
    names_.erase({rank, comm});
    topologies_.erase({rank, comm});
  }

private:
  std::map<std::pair<int, int>, std::string> names_;
  std::map<std::pair<int, int>, std::shared_ptr<const Topology>> topologies_;
};

} // namespace mpisim::online
