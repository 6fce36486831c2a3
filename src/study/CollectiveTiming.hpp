// Timing one collective call in isolation: every rank of a fresh simulation calls it once, at date 0, with the same
// per-rank size; the result is the date the last rank returns. The building block of `mpisim study coll`.
#pragma once

#include "mpi/Simulation.hpp"

#include <memory>
#include <string>

namespace mpisim::study {

struct CollectiveTiming {
  mpi::SimulationOptions simulation; // platform, model, parameters, placement, selector or forced algorithm
  std::string operation;             // "alltoall", "bcast", ...
  int ranks = 1;
  // Per rank: bcast/reduce/allreduce/scan/exscan: the buffer; alltoall(v)/gather(v)/scatter(v)/allgather(v): the
  // block exchanged with each peer; reduce_scatter: the block each rank keeps. Barrier: unused.
  double bytes = 0;
  double element_bytes = 1; // datatype size (selectors of real libraries decide on element counts too)
  int root = 0;
};

// Seconds of simulated time. `platform`, when given, is used instead of loading simulation.platform again.
double time_collective(const CollectiveTiming& timing, std::shared_ptr<const platform::Platform> platform = nullptr);

} // namespace mpisim::study
