// The per-process recorder behind libmpisim-trace.so: the state every MPI wrapper shares (trace file, timeline,
// communicators, datatypes, pending requests) and the bookkeeping around each intercepted call.
//
// Life: MPI_Init/MPI_Init_thread start it (after the real initialisation), MPI_Finalize stops it. Only the thread
// that initialised MPI is recorded; calls from other threads, nested calls (an MPI call made by the MPI library or
// by ROMIO inside another call), and calls before MPI_Init or after MPI_Finalize pass straight through.
//
// Each wrapper opens a `Call`: the constructor measures the computation since the previous call returned and writes
// it as `compute <flops>`; the wrapper calls the PMPI_ function and describes what happened (TI lines, timeline
// arguments); the destructor writes the timeline event and restarts the computation measure. Times taken inside a
// call (the MPI function itself and the recorder's own work) are never counted as computation. Reading the thread CPU
// clock is a system call; begin_call and end_call skip it where its answer is known without it (see there).
#pragma once

#include "record/Communicators.hpp"
#include "record/ComputeMeter.hpp"
#include "record/Config.hpp"
#include "record/Datatypes.hpp"
#include "record/Requests.hpp"
#include "record/Timeline.hpp"
#include "record/TraceFile.hpp"

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::record {

class Recorder {
public:
  Recorder(Config config, int rank, int size);
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Called by the MPI_Init wrappers once PMPI_Init succeeded. `init_start_ns` is the monotonic clock at entry.
  static void start(std::string_view call, uint64_t init_start_ns, int thread_level);
  // The recorder when the calling thread may record a call now, else null. Counts skipped calls of other threads.
  static Recorder* enter();

  int rank() const { return rank_; }
  int size() const { return size_; }
  const Config& config() const { return config_; }
  TraceFile& trace() { return trace_; }
  Communicators& comms() { return comms_; }
  const Datatypes& types() const { return types_; }

  // ---- call boundaries (used by Call). begin_call returns the call's start on the monotonic clock.
  uint64_t begin_call();
  void end_call(std::string_view name, uint64_t start_ns, const CallArgs& args);
  static uint64_t now_ns();

  // ---- point-to-point lines. Peers are ranks of `comm`; MPI_PROC_NULL peers write nothing.
  void blocking_send(MPI_Comm comm, int dst, int tag, int count, MPI_Datatype type, CallArgs& args);
  // For a completed receive: source and tag come from the status when the call used wildcards.
  void blocking_recv(MPI_Comm comm, int src, int tag, int count, MPI_Datatype type, const MPI_Status& status,
                     CallArgs& args);
  void sendrecv(MPI_Comm comm, int dst, int sendtag, int sendcount, MPI_Datatype sendtype, int src, int recvtag,
                int recvcount, MPI_Datatype recvtype, const MPI_Status& status, CallArgs& args);
  void isend(MPI_Request request, MPI_Comm comm, int dst, int tag, int count, MPI_Datatype type, CallArgs& args);
  void irecv(MPI_Request request, MPI_Comm comm, int src, int tag, int count, MPI_Datatype type, CallArgs& args);
  void persistent(MPI_Request request, bool receive, MPI_Comm comm, int peer, int tag, int count, MPI_Datatype type);
  void start_persistent(MPI_Request request, CallArgs& args);

  // ---- completion
  // The tracked, active request behind this handle (read it before the PMPI call clears the handle).
  std::optional<TrackedRequest> active_request(MPI_Request handle) const;
  // How many tracked, active requests this handle stands for (more than one for a shared handle).
  size_t tracked(MPI_Request handle) const { return requests_.active_count(handle); }
  // A `test` line for a request still pending after a test call.
  void test_line(MPI_Request handle);
  // The request completed: resolve a wildcard receive from its status, and write `wait` unless `quiet` (a waitall
  // line covers it).
  void completed(MPI_Request handle, const MPI_Status* status, bool quiet = false);
  // How many requests the replay will hold pending at this point: tracked active ones, plus those the application
  // freed while active (MPI_Request_free), which a replayed `waitall` would also wait for.
  size_t replay_pending() const { return active_ + orphans_; }
  void request_freed(MPI_Request handle);

  // ---- non-blocking file accesses: posted by the file wrappers, completed by the completion calls (`file_wait`)
  void file_posted(MPI_Request handle, FileRequest request) { file_requests_.add(handle, std::move(request)); }
  size_t file_requests(MPI_Request handle) const { return file_requests_.count(handle); }
  // The oldest file access under the handle completed: its `file_wait` line.
  void file_completed(MPI_Request handle);
  // MPI_Request_free of a file access: forgotten without a line (the replay completes it at the file's close).
  void file_freed(MPI_Request handle)
  {
    FileRequest ignored;
    file_requests_.take(handle, ignored);
  }

  // ---- notes: things the trace cannot express, listed at the end of the rank's trace and on stderr.
  void note(const std::string& kind, const std::string& detail);

  // ---- MPI_Finalize
  void finalize_begin();
  void finalize_end(uint64_t start_ns);
  static void stop();

private:
  void open_outputs();
  void resolve(TrackedRequest& request, const MPI_Status& status);

  Config config_;
  std::string mpi_library_;
  int rank_;
  int size_;
  ComputeMeter meter_;
  TraceFile trace_;
  Timeline timeline_;
  Communicators comms_;
  Datatypes types_;

  uint64_t origin_ns_ = 0; // timeline time 0, see start()
  static constexpr uint64_t kShortCallNs = 2000;
  uint64_t meter_at_exit_ = 0; // compute meter when the previous call returned
  uint64_t entry_reading_ = 0; // compute meter when the current call started
  uint64_t entry_wall_ns_ = 0; // monotonic clock right after that reading
  uint64_t exit_wall_ns_ = 0;  // monotonic clock when meter_at_exit_ was taken
  double dropped_seconds_ = 0; // bursts below the threshold (an upper bound: skipped ones count their wall time)
  long long dropped_bursts_ = 0;
  long long calls_ = 0;

  RequestTable requests_;
  FileRequestTable file_requests_;
  size_t active_ = 0;
  size_t orphans_ = 0;
  uint64_t next_serial_ = 0;

  struct Note {
    std::string kind;
    std::string first_detail;
    long long count = 0;
  };
  std::vector<Note> notes_;
};

// One intercepted call: RAII around Recorder::begin_call/end_call. Evaluates to false when the call is not recorded.
class Call {
public:
  explicit Call(std::string_view name) : recorder_(Recorder::enter()), name_(name)
  {
    if (recorder_ != nullptr)
      start_ns_ = recorder_->begin_call();
  }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  ~Call()
  {
    if (recorder_ != nullptr)
      recorder_->end_call(name_, start_ns_, args);
  }
  explicit operator bool() const { return recorder_ != nullptr; }
  Recorder& rec() { return *recorder_; }
  uint64_t start_ns() const { return start_ns_; }
  // Ends the call without an event (MPI_Finalize writes its own).
  void release() { recorder_ = nullptr; }

  CallArgs args;

private:
  Recorder* recorder_;
  std::string_view name_;
  uint64_t start_ns_ = 0;
};

} // namespace mpisim::record
