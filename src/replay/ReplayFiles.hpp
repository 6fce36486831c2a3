// The MPI-IO actions of a trace, replayed: files opened by every rank ("world") or by one ("self"), each access timed
// by the storage model (src/io) as online MPI-IO times it, collective ones through the same two-phase code
// (mpi/io/CollectiveFileAccess). No bytes: a trace records sizes and offsets only.
#pragma once

#include "io/StorageSystem.hpp"
#include "mpi/Simulation.hpp"
#include "mpi/io/CollectiveFileAccess.hpp"
#include "replay/TraceAction.hpp"

#include <map>
#include <memory>
#include <string>

namespace mpisim::replay {

// What the ranks share: the storage model and each world-opened file's communicator, made on first use (a trace
// without I/O costs nothing).
class SharedFiles {
public:
  SharedFiles(mpi::Simulation& simulation, int ranks) : simulation_(simulation), ranks_(ranks) {}
  io::StorageSystem& storage();
  // The communicator of `name`'s world openers, made by the first rank to open it (deterministic: one actor runs at a
  // time). Its two-phase messages cannot meet the trace's own.
  const mpi::Communicator& channel(const std::string& name);
  const mpi::CollectiveBufferingHints& hints() const { return hints_; }
  const mpi::CollectiveLibrary& collectives() const { return simulation_.collectives(); }
  // A file's shared pointer, in bytes, kept while any rank has it open: `key` is the name of a world file, the name
  // and the rank of a self one (each self opener has its own file pointer). The first opener sets it to 0.
  void opened(const std::string& key);
  void closed(const std::string& key);
  int64_t& shared_pointer(const std::string& key) { return shared_pointers_[key].bytes; }

private:
  struct SharedPointer {
    int64_t bytes = 0;
    int openers = 0;
  };
  mpi::Simulation& simulation_;
  int ranks_;
  std::unique_ptr<io::StorageSystem> storage_;
  std::map<std::string, const mpi::Communicator*> channels_;
  mpi::CollectiveBufferingHints hints_; // ROMIO's defaults: a trace records none
  std::map<std::string, SharedPointer> shared_pointers_;
};

// One rank's open files and their individual pointers.
class RankFiles {
public:
  RankFiles(SharedFiles& shared, mpi::Rank& rank, const std::string& trace_file)
      : shared_(shared), rank_(rank), trace_file_(trace_file)
  {
  }
  // Performs one MPI-IO action (is_file_action(a.kind)); throws InputError for a file not open, or opened twice.
  void perform(const TraceAction& a);

private:
  struct OpenFile {
    io::FileId id = 0;
    const mpi::Communicator* channel = nullptr;     // null: opened by this rank alone
    std::string key;                                // of its shared pointer (SharedFiles::shared_pointer)
    int64_t pointer = 0;                            // the individual file pointer, in bytes
    int64_t posted = 0;                             // non-blocking accesses posted so far: the next one's number
    std::map<int64_t, kernel::ActivityPtr> pending; // non-blocking accesses not waited for yet, by number
    uint32_t collectives = 0;                       // collective accesses begun: the next one's number (its tags)
  };
  // A non-blocking collective access: a helper actor runs the blocking code (as online), and the activity it
  // returns completes when the helper is done.
  kernel::ActivityPtr start_collective(const mpi::CollectiveFileAccess& access, std::vector<mpi::FilePiece> pieces,
                                       io::Direction direction);
  OpenFile& open_file(const TraceAction& a);
  void access(const TraceAction& a, OpenFile& file);
  // Where the access starts: its explicit offset, the individual pointer, or the shared one (which it moves).
  int64_t access_offset(const TraceAction& a, OpenFile& file, int64_t bytes);
  // An ordered access: the members' places in rank order after the shared pointer (as online MPI-IO finds them).
  int64_t ordered_offset(OpenFile& file, int64_t bytes);
  void wait_pending(const TraceAction& a, OpenFile& file);
  // Closing, syncing and resizing a world-opened file end with a barrier of its openers, as online.
  void barrier_of(const mpi::Communicator* channel);
  void wait_for(const kernel::ActivityPtr& activity);
  io::Client client() const;

  SharedFiles& shared_;
  mpi::Rank& rank_;
  const std::string& trace_file_;
  std::map<std::string, OpenFile> files_;
};

} // namespace mpisim::replay
