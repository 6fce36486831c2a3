// Where a rank's actions come from: its own trace file, or its share of a shared trace read once for every rank.
// Each source parses its lines as it reads them (ActionParser.hpp), so errors come in file order.
#pragma once

#include "replay/TraceAction.hpp"

#include <cstddef>
#include <memory>
#include <string>

namespace mpisim::replay {

namespace detail {

// The actions of one rank, in trace order.
class RankSource {
public:
  virtual ~RankSource() = default;
  // Fills `out` with the next action and returns true, or returns false at the end of the rank's trace.
  virtual bool next(TraceAction& out) = 0;
};

} // namespace detail

// The actions of `rank` from its own file, read through a buffer of `chunk_size` bytes; every line must carry that
// rank (InputError otherwise). `path` is one find_trace_files() found to be a regular file.
std::unique_ptr<detail::RankSource> rank_file_source(std::string path, size_t chunk_size, int rank, int world_size);

// A shared trace read once, in order, its actions dealt to per-rank queues until their ranks ask for them.
class SharedTraceDemux;
std::shared_ptr<SharedTraceDemux> shared_trace_demux(std::string path, size_t chunk_size, int world_size);
// The actions of `rank` from a shared trace.
std::unique_ptr<detail::RankSource> shared_rank_source(std::shared_ptr<SharedTraceDemux> demux, int rank);

} // namespace mpisim::replay
