// Reader of SimGrid time-independent (TI) trace sets: validates every line while loading and hands out typed
// TraceAction records, one stream per rank.
//
// What `TraceSet::open(path, np)` accepts:
//  - an index file listing one trace file per line, line i = file of rank i (SimGrid's `smpirun -replay` input).
//    Blank lines and lines starting with '#' are skipped, surrounding blanks trimmed. Relative paths are resolved
//    against the index file's folder first, then against the current directory. (SimGrid 3.32 only tries the current
//    directory, so an index only works from the folder it was recorded in; both places are tried here so such indexes
//    keep working.) np = -1 replays every listed rank; otherwise 1 <= np <= number of listed files.
//  - an index holding exactly one file: that file is a shared trace interleaving every rank (SimGrid's convention).
//  - a trace file itself, recognised by its first non-blank, non-comment line being an action line `<int> <word> ...`:
//    read as a shared trace too (a one-rank trace is the special case whose lines all start with 0).
//  For a shared trace, np = -1 means "one more than the largest rank field in the file", found by a first pass that
//  reads only the rank fields; an explicit np skips that pass, and a line for a rank >= np is then an error.
//
// Line syntax and checks (each failure is an InputError "file:line: what is wrong, quoting the value"):
//  `<rank> <action> <args...>`, blank/tab separated; see TraceAction.hpp for the actions and their fields. Unknown
//  actions, missing or extra arguments, numbers that do not parse completely (`12x`), negative counts (except the
//  receive size of recv/irecv, where SimGrid reads a negative value as "probe for the size first"), ranks/peers/roots
//  outside [0, P), unknown datatype ids and, in per-rank files, a rank field that is not the file's rank (SimGrid
//  silently skips such lines) are all rejected. Counts are truncated to integers as SimGrid does; a count may be
//  written as `1e6` also inside the v-collective arrays (SimGrid's std::stoi would read "1e6" there as 1). The last
//  line of a file is read even without a final newline (SimGrid 3.32 drops it).
//
// Default datatype: per rank, MPI_BYTE until an `init` line; `init` alone keeps MPI_BYTE, `init <anything>` selects
// MPI_DOUBLE (SimGrid's "TAU" and "MPE" conventions). Actions without an explicit datatype argument get that default.
//
// Resources: traces are streamed, never loaded whole. A per-rank stream keeps a read buffer whose size shrinks as the
// number of ranks grows (4 MiB in total, between 4 KiB and 64 KiB per rank), and reopens its file at the saved offset
// at each refill, so the reader holds at most one file descriptor at any time, whatever the number of ranks. A shared
// trace is read once, in order; lines of other ranks wait, already parsed, in per-rank queues until those ranks ask.
// Not thread-safe: a TraceSet and its streams belong to one thread (the simulation thread).
//
// One file per job, all in this folder: TraceIndex (which files, how many ranks), LineReader (streaming a file's
// lines), TraceLine (tokens, numbers, the file:line of errors), ActionParser (the action table and each action's
// arguments), ActionSizes (counts to bytes, the collective's call), TiDatatypes (datatype ids and sizes), RankSources
// (a rank's own file, or its share of a shared trace).
#pragma once

#include "replay/TraceAction.hpp"
#include "replay/TraceIndex.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::replay {

namespace detail {
class RankSource; // reads and parses one rank's lines (RankSources.hpp)
struct TraceSetState;
} // namespace detail

// The actions of one rank, in trace order.
class RankStream {
public:
  RankStream(RankStream&&) noexcept;
  RankStream& operator=(RankStream&&) noexcept;
  ~RankStream();

  // Fills `out` with the next action and returns true, or returns false at the end of the rank's trace.
  // Throws InputError on a malformed line. `out` may be reused between calls (its details buffer is recycled).
  bool next(TraceAction& out);
  int rank() const { return rank_; }

private:
  friend class TraceSet;
  RankStream(int rank, std::unique_ptr<detail::RankSource> source);

  int rank_;
  std::unique_ptr<detail::RankSource> source_;
};

class TraceSet {
public:
  using Layout = TraceLayout;

  // Opens a trace set (see the top of this file). Checks that the index is not empty, that np fits, and that every
  // needed trace file exists; lines are only parsed when streamed. Throws InputError.
  static TraceSet open(const std::string& path, int np = -1);
  // A trace set of another format (TraceFormat.hpp): `world_size` ranks whose actions `source(rank)` produces, each
  // read from `file` (named in errors and results). `communicators`: the world ranks of each communicator other than
  // MPI_COMM_WORLD that collectives run on (ActionDetails::communicator indexes them).
  using SourceFactory = std::function<std::unique_ptr<detail::RankSource>(int rank)>;
  static TraceSet from_sources(int world_size, std::string file, SourceFactory source,
                               std::vector<std::vector<int>> communicators = {});

  int size() const;
  Layout layout() const;
  // The communicators the collectives of the trace run on besides MPI_COMM_WORLD, as world ranks (empty for TI).
  const std::vector<std::vector<int>>& communicators() const;
  // The file holding the actions of `rank`, as resolved (the shared file for a shared trace).
  const std::string& trace_file(int rank) const;

  // The stream of `rank` in [0, size()). Each rank's stream can be taken once (a shared trace cannot be rewound);
  // open the set again to read it again. Streams stay valid after the TraceSet is destroyed.
  RankStream stream(int rank);

private:
  explicit TraceSet(std::shared_ptr<detail::TraceSetState> state);
  std::shared_ptr<detail::TraceSetState> state_;
};

} // namespace mpisim::replay
