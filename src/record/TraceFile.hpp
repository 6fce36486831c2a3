// One rank's time-independent trace file, written line by line as `<rank> <action> <arguments...>`.
//
// Lines are built token by token into one reused buffer, then written through a large stdio buffer. A line that
// names a wildcard receive (MPI_ANY_SOURCE or MPI_ANY_TAG) cannot be completed when it is written: the actual
// source and tag are only known when the request completes. Such a line is *deferred*: it keeps placeholders,
// waits in memory with every line written after it (the file stays in program order), and is completed by
// resolve() or removed by drop().
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <string_view>

namespace mpisim::record {

class TraceFile {
public:
  TraceFile() = default;
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;
  ~TraceFile();

  // Returns false (errno set) when the file cannot be created.
  bool open(const std::string& path, int rank);
  // Drops the deferred lines never resolved (each replaced by a comment saying so) and writes what was waiting.
  // Returns how many action lines were dropped.
  int drop_unresolved();
  void close();

  // Building a line: begin(action), then arguments, then end() or end_deferred(request).
  TraceFile& begin(std::string_view action);
  TraceFile& add(long long value);
  TraceFile& add(int value) { return add(static_cast<long long>(value)); }
  TraceFile& add(std::string_view token);
  TraceFile& add_flops(double flops); // rounded to an integer count
  TraceFile& add_source_placeholder();
  TraceFile& add_tag_placeholder();
  void end();
  // The line has placeholders for the source and/or tag of request `request` (a serial number > 0).
  void end_deferred(uint64_t request);

  // A `# ...` line: skipped by every reader, kept in order.
  void comment(std::string_view text);

  void resolve(uint64_t request, int source, int tag);
  // Removes the lines of a request that will never be resolved, leaving a comment in their place.
  void drop(uint64_t request, std::string_view why);

  // Action lines written since the last call: lets each MPI call report how many lines it produced.
  int take_action_count();
  long long action_lines() const { return action_lines_; }

private:
  struct Waiting {
    std::string text;
    uint64_t request; // 0: complete
  };
  void emit(std::string&& text, uint64_t request);
  void flush_ready();

  std::FILE* file_ = nullptr;
  std::string prefix_; // "<rank> "
  std::string line_;
  std::deque<Waiting> waiting_;
  int actions_since_take_ = 0;
  long long action_lines_ = 0;
};

} // namespace mpisim::record
