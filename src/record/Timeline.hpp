// One rank's timed trace of the real run, in the Chrome trace-event format (JSON; opens in Perfetto and
// chrome://tracing): one complete (`"ph":"X"`) event per intercepted MPI call, pid 0, tid = world rank, times in
// microseconds since the start of MPI_Init (ranks aligned at the end of MPI_Init, see Recorder.cpp).
//
// Each rank writes its own file, `rank-<r>.json`, one event per line; it is a complete Chrome trace by itself once
// closed. `mpisim record` merges them into `timeline.json`.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace mpisim::record {

// What a call did, as far as the timeline shows it. Unset fields are left out of the event.
struct CallArgs {
  static constexpr long long kUnset = -1;
  long long peer = kUnset;  // world rank of the partner, or of the root of a rooted collective
  long long bytes = kUnset; // bytes this rank sent (received, for receives)
  long long tag = kUnset;
  bool has_tag = false;
  std::string comm; // communicator id (see Communicators.hpp); empty: none
};

class Timeline {
public:
  Timeline() = default;
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;
  ~Timeline();

  bool open(const std::string& path, int rank);
  // Times in nanoseconds (written as microseconds with three decimals). Formats with std::to_chars, not printf: this
  // runs once per MPI call.
  void event(std::string_view name, long long start_ns, long long duration_ns, const CallArgs& args, int actions);
  // Ends the JSON document; `other_data` is a JSON object (provenance) stored as the trace's "otherData".
  void close(const std::string& other_data);

private:
  std::FILE* file_ = nullptr;
  std::string rank_text_;
  std::string line_;
};

} // namespace mpisim::record
