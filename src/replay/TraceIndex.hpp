// What a trace path names: the files of a trace set, how its ranks are laid out over them, and how many ranks it has.
// The accepted inputs are described at the top of TraceReader.hpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mpisim::replay {

enum class TraceLayout { PerRankFiles, SharedFile };

struct TraceFiles {
  TraceLayout layout = TraceLayout::PerRankFiles;
  int world_size = 0;
  std::vector<std::string> files; // one per rank as resolved, or the shared file alone
  size_t chunk_size = 0;          // read buffer of each stream
};

// Reads the index (or recognises a trace file), checks that np fits and that every needed trace file exists, and
// for a shared trace with np = -1 scans its rank fields. Throws InputError "file:line: what".
TraceFiles find_trace_files(const std::string& path, int np);

} // namespace mpisim::replay
