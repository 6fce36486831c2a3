// The trace format extension point: each format reader registers itself (one file per format, README.md) and is
// chosen by the input it recognises: SimGrid's time-independent traces (`ti`, TiTraceFormat.cpp), OTF2 archives
// (`otf2`, Otf2TraceReader.cpp). Every format hands the replayer the same typed actions (TraceAction.hpp).
#pragma once

#include "replay/TraceReader.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::replay {

// What formats that record time rather than work need to turn it into work.
struct TraceFormatOptions {
  // flop/s a second of computation recorded between MPI calls is worth (--otf2-host-speed); 0: the speed of the host
  // each rank is placed on (`rank_host_speed`), so that the computation lasts in the replay what it lasted in the
  // trace.
  double host_speed = 0;
  // The speed of rank r's host; called when a rank's stream is taken (after the simulation is built). Unset: 1 Gf.
  std::function<double(int rank)> rank_host_speed;

  double speed_of(int rank) const
  {
    if (host_speed > 0)
      return host_speed;
    return rank_host_speed ? rank_host_speed(rank) : 1e9;
  }
};

struct TraceFormatEntry {
  std::string name;
  std::string description; // one line
  std::string reference;   // where the format is specified
  // Whether `path` is in this format (cheap: a name or a first look at the file). The fallback entry is chosen when
  // no other recognises the input.
  std::function<bool(const std::string& path)> recognises;
  bool fallback = false;
  std::function<TraceSet(const std::string& path, int np, const TraceFormatOptions& options)> open;
};

class TraceFormatRegistry {
public:
  static void add(TraceFormatEntry entry);
  // The format that recognises `path`, else the fallback one.
  static const TraceFormatEntry& for_path(const std::string& path);
  static const std::vector<TraceFormatEntry>& all(); // sorted by name
};

struct RegisterTraceFormat {
  explicit RegisterTraceFormat(TraceFormatEntry entry) { TraceFormatRegistry::add(std::move(entry)); }
};

// Opens `path` with the format that recognises it. Throws InputError.
TraceSet open_trace(const std::string& path, int np, const TraceFormatOptions& options = {});

} // namespace mpisim::replay
