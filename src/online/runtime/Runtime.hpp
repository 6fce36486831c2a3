// The state of an online simulation, shared by the C API (bindings/) and the runner (runner/main.cpp): the
// simulation, the calling rank, each rank's accounting, and the MPI objects of the run (objects/), which it owns.
//
// Every MPI call runs inside a rank's actor; the runtime finds the calling rank from the running actor. Handles are
// shared by all ranks (one process, one thread): a communicator created collectively gets the same handle on every
// member, so a rank's private copy of the program may store it anywhere.
#pragma once

#include "mpi/Simulation.hpp"
#include "online/objects/Attributes.hpp"
#include "online/objects/CommProperties.hpp"
#include "online/objects/Communicators.hpp"
#include "online/objects/Datatypes.hpp"
#include "online/objects/Groups.hpp"
#include "online/objects/Requests.hpp"
#include "online/options/OnlineOptions.hpp"
#include "online/runtime/LibcStates.hpp"
#include "online/runtime/RankSignals.hpp"
#include "online/runtime/RunEnd.hpp"
#include "online/runtime/ThreadCpuClock.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <pthread.h>
#include <string>
#include <utility>
#include <vector>

namespace mpisim::online {

class CallReporter;
class Sampling;

// Where one rank's simulated time went.
struct RankAccount {
  double compute = 0; // computation injected between MPI calls
  double mpi = 0;     // inside MPI calls
  double finish = -1; // date main returned (-1: still running)
  uint64_t calls = 0;
  double cpu_mark = 0; // host thread CPU time (ThreadCpuClock) when the rank last left the MPI library
  int depth = 0;       // nesting of MPI calls (an MPI call made by the library itself is not timed twice)
  double entered = 0;  // simulated date of the outermost call's entry
  bool initialized = false, finalized = false;
};

// Point-to-point (api_buffered.cpp): a rank's buffer for buffered sends (MPI_Buffer_attach) and the buffered
// messages whose copies take room in it, each with that room (payload + MPI_BSEND_OVERHEAD), until they arrive.
struct AttachedBuffer {
  void* address = nullptr;
  int size = 0;
  bool attached = false;
  std::vector<std::pair<mpi::RequestPtr, size_t>> in_use;
};

class ProcessObjects;
class NameService;
class ToolInterface;
class Windows;
class Files;

class Runtime {
public:
  Runtime(mpi::Simulation& simulation, OnlineOptions options);
  ~Runtime();
  static Runtime& get(); // the runtime of the run in progress (std::logic_error when none)
  static bool active();

  mpi::Simulation& simulation() { return simulation_; }
  mpi::World& world() { return simulation_.world(); }
  const OnlineOptions& options() const { return options_; }
  double now() const;

  // Called in the rank's actor before it runs main (binds the actor to the rank).
  void attach(int world_rank);
  void detach(int world_rank);
  // The calling rank, -1 outside any rank (every MPI call asks: inline).
  int current_rank() const
  {
    const kernel::Actor* actor = simulation_.engine().running();
    const size_t id = actor != nullptr ? static_cast<size_t>(actor->id()) : rank_of_actor_.size();
    return id < rank_of_actor_.size() ? rank_of_actor_[id] : -1;
  }
  // The rank whose own actor runs now on the simulation's thread, or -1 (no run, another thread, the engine's own
  // code, an actor working for a rank): for the C library functions mpisim defines (online/libc/), which may be called
  // from anywhere.
  static int libc_rank();
  // The rank whose code runs now, kept without asking the engine (for the crash handler): set when a rank starts and
  // whenever an MPI call returns to it.
  int running_rank() const { return running_rank_; }
  // Whether a memory fault at `address` with the stack pointer at `stack_pointer` is the running actor overflowing
  // its stack (the crash handler's question).
  bool running_rank_overflows_stack(const void* address, uintptr_t stack_pointer) const;
  mpi::Rank& rank() { return world().rank(current_rank()); }
  RankAccount& account(int world_rank) { return accounts_[world_rank]; }
  const std::vector<RankAccount>& accounts() const { return accounts_; }

  // Called with the running rank whenever control may pass to another rank (a rank entering an MPI call, a rank's
  // main returning) and before the run ends: where the runner attributes output to ranks (--tag-output).
  void set_output_boundary(std::function<void(int rank)> hook) { output_boundary_ = std::move(hook); }
  void output_boundary(int rank)
  {
    if (output_boundary_ && rank >= 0)
      output_boundary_(rank);
  }
  // The run ends abruptly (exit(), MPI_Abort, a fatal error, a crash): the running rank's last output goes out, and
  // the application's streams are the real ones again, for mpisim's report.
  void set_output_end(std::function<void()> hook) { output_end_ = std::move(hook); }
  void end_output()
  {
    output_boundary(running_rank());
    if (output_end_)
      output_end_();
  }
  // The run ends abruptly (terminate_run, the crash handler, exit()): the runner writes its summary, which names the
  // outcome. Called once the report is out, just before the process ends.
  void set_run_end(std::function<void(const RunEnd&)> hook) { run_end_ = std::move(hook); }
  void run_ended(const RunEnd& end)
  {
    if (auto hook = std::exchange(run_end_, nullptr)) // once, even if writing the summary faults
      hook(end);
  }
  // The address of the global `name` in `world_rank`'s copy of the program (null when it has none), set by the runner:
  // how the Fortran bindings find the program's own MPI_BOTTOM, MPI_IN_PLACE, ... (common blocks live in the program,
  // one per rank under dlopen privatization).
  void set_program_symbols(std::function<void*(int world_rank, const char* name)> lookup)
  {
    program_symbols_ = std::move(lookup);
  }
  void* program_symbol(int world_rank, const char* name) const
  {
    return program_symbols_ && world_rank >= 0 ? program_symbols_(world_rank, name) : nullptr;
  }
  // mpisim's warnings about the application (requests pending at MPI_Finalize), in the order given: printed at the
  // end of the run and listed in the JSON summary.
  void warn(std::string warning) { warnings_.push_back(std::move(warning)); }
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Requests the ranks never completed are erroneous at MPI_Finalize (MPI-3.1 section 8.7): once the run is over, a
  // warning per rank that finalized with some, naming how many and the first few (as MPI debuggers report them).
  // After the run, since a finalized rank can no longer touch its requests: one scan for all ranks.
  void warn_requests_pending_at_finalize();
  // The ranks blocked now, in rank order, each with what it waits for (reports of a run cut short).
  struct WaitingRank {
    int rank;
    std::string waits_for;
  };
  std::vector<WaitingRank> waiting_ranks() const;

  // MPI may be called only between MPI_Init and MPI_Finalize (MPI-3.1 section 8.7): a call of the calling rank
  // outside them ends the run as a fatal MPI error naming `call` (MPI_Send or PMPI_Send). The few calls allowed
  // at any time (MPI_Initialized, MPI_Finalized, MPI_Get_version, MPI_Get_library_version; here also MPI_Wtime,
  // MPI_Wtick and MPI_Abort) never ask.
  void check_call_allowed(const char* call)
  {
    const int me = current_rank();
    if (me >= 0 && (not accounts_[me].initialized || accounts_[me].finalized)) [[unlikely]]
      refuse_call(me, call);
  }

  // Entry and exit of every MPI call (ApiScope): computation since the last exit becomes simulated time. `call`
  // names the MPI function, for the timeline. The outermost call is checked first (check_call_allowed).
  // Portals calls (online/portals/) pass checked = false: a Portals program needs no MPI_Init.
  // enter_call returns the calling rank, which the call's scope hands back to leave_call (its actor's rank, as on
  // entry: the call runs in one actor, and the engine need not be asked again).
  int enter_call(const char* call = nullptr, bool checked = true);
  void leave_call(int world_rank);

  // Timelines: with a reporter, each rank's outermost MPI calls and computation bursts are reported to the world's
  // observers (CallReporter). Not owned.
  void set_call_reporter(CallReporter* reporter) { reporter_ = reporter; }
  CallReporter* call_reporter() { return reporter_; }

  // The objects behind MPI's handles (objects/): lookups return null for invalid handles, resolve() and
  // raise_invalid() raise the kind's error class.
  // Communicators (objects/Communicators.hpp); comm(): the calling rank's lookup, null for an invalid handle.
  Communicators& communicators() { return communicators_; }
  const mpi::Communicator* comm(int handle)
  {
    const mpi::Communicator* found =
        communicators_.find(handle, handle == MPI_COMM_SELF ? current_rank() : -1); // the rank costs a lookup
    if (found != nullptr && found->is_inter()) [[unlikely]]                         // one handle, a side per group
      return &found->side_of(current_rank());
    return found;
  }

  Datatypes& datatypes() { return datatypes_; }
  Operations& operations() { return operations_; }
  Requests& requests() { return requests_; } // and MPI_Message handles

  // Point-to-point: each rank's attached buffer (buffered sends).
  AttachedBuffer& attached_buffer(int world_rank) { return attached_buffers_[world_rank]; }
  // Groups, attributes, names and topologies: objects local to each rank (Groups.hpp, Attributes.hpp,
  // CommProperties.hpp).
  GroupTable& groups() { return groups_; }
  Attributes& attributes() { return attributes_; }
  CommProperties& comm_properties() { return comm_properties_; }

  // ---- Annotations for large studies (Sampling.hpp, api_sampling.cpp) ----
  Sampling& sampling();
  // True while the calling rank runs the body of a sampled loop (its real time is measured by the sampler).
  bool in_sampled_body();
  // Computation outside MPI calls: inject what the calling rank computed since it last left the MPI library (as on
  // entry to a call), then start measuring anew; restart_computation() alone forgets what was measured (the real
  // time of an annotation is not computation).
  void flush_computation();
  void restart_computation();
  // Simulates `flops` on the calling rank's host, accounted as computation; a simulated sleep, accounted as neither.
  void execute_flops(double flops);
  void sleep(double seconds);
  // ---- Time as the program sees it through the C library (online/libc/) ----
  // The simulated date, as MPI_Wtime gives it: the computation since the rank last left the MPI library is injected
  // first, --wtime-delay spent after reading.
  double read_clock();
  // The rank's simulated computation so far (its CPU-time clocks). The computation since it last left the MPI
  // library is injected first; a burst under --cpu-threshold is kept for the next measurement rather than dropped,
  // so that a loop reading a CPU clock sees it advance.
  double read_cpu_clock();
  // A simulated sleep (sleep, nanosleep, ...), after injecting the computation before it.
  void sleep_for(double seconds);
  // The C library's per-rank state (LibcStates.hpp); also the engine's memory contexts (runner/main.cpp).
  LibcStates& libc() { return libc_; }
  // Signals sent to ranks in simulated time (alarm, kill between ranks: online/libc/Signals.cpp).
  RankSignals& signals() { return signals_; }

  // What each MPI process of a real run keeps: info objects, error handlers and codes, names (ProcessObjects.hpp).
  ProcessObjects& process_objects() { return *process_objects_; }
  // Ports and published service names (NameService.hpp): made on first use.
  NameService& names();
  // What each rank holds of the tool information interface (ToolVariables.hpp): made on first use.
  ToolInterface& tools();

  // ---- One-sided communication (Windows.hpp, api_windows.cpp, api_rma.cpp): the table is made with the first window
  Windows& windows();
  bool has_windows() const { return windows_ != nullptr; }

  // ---- MPI-IO (Files.hpp, api_file*.cpp): the files and the storage model, made with the first file call
  Files& files();
  // The run ends abruptly: a temporary I/O root goes (the runtime's destructor does not run).
  void discard_temporary_files();

private:
  void inject_computation(int world_rank, double flops);
  void refuse_call(int world_rank, const char* call);

  mpi::Simulation& simulation_;
  OnlineOptions options_;
  std::vector<RankAccount> accounts_;
  std::vector<int> rank_of_actor_; // by actor id (dense, from 0): the rank, -1 for actors that are not ranks
  Communicators communicators_;
  Datatypes datatypes_;
  Operations operations_;
  Requests requests_;
  std::map<int, AttachedBuffer> attached_buffers_; // by world rank
  int running_rank_ = -1;
  std::function<void(int)> output_boundary_;
  std::function<void()> output_end_;
  std::function<void(const RunEnd&)> run_end_;
  std::function<void*(int, const char*)> program_symbols_;
  std::vector<std::string> warnings_;
  CallReporter* reporter_ = nullptr;

  // Groups, attributes, names, topologies (see above).
  GroupTable groups_;
  Attributes attributes_;
  CommProperties comm_properties_;

  std::unique_ptr<Sampling> sampling_; // made on first use
  std::unique_ptr<ProcessObjects> process_objects_;
  std::unique_ptr<NameService> names_;   // made on first use
  std::unique_ptr<ToolInterface> tools_; // made on first use
  std::unique_ptr<Windows> windows_;     // one-sided communication: made on first use
  std::unique_ptr<Files> files_;         // MPI-IO: made on first use
  LibcStates libc_;
  RankSignals signals_;
  pthread_t thread_;         // the thread running the simulation
  ThreadCpuClock cpu_clock_; // that thread's CPU time, every rank's computation

  // Host CPU time used by the rank since it last left the MPI library.
  double computation_burst(const RankAccount& account) { return cpu_clock_.now() - account.cpu_mark; }
  void mark_cpu(RankAccount& account) { account.cpu_mark = cpu_clock_.now(); }
};

} // namespace mpisim::online
