#include "record/Recorder.hpp"

#include "common/Errors.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <pthread.h>
#include <sys/utsname.h>
#include <time.h>

#ifndef MPISIM_VERSION
#define MPISIM_VERSION "unknown"
#endif

namespace mpisim::record {

namespace {

// Owned here, published through an atomic pointer once complete: threads other than the recording one may call MPI
// (and look) at any time.
std::unique_ptr<Recorder> g_owner;
std::atomic<Recorder*> g_recorder{nullptr};
pthread_t g_thread;
std::atomic<long long> g_other_thread_calls{0};
thread_local int t_depth = 0; // > 0 inside a recorded call: nested MPI calls are not recorded

[[noreturn]] void abort_run(int rank, const std::string& message)
{
  std::fprintf(stderr, "mpisim-trace: rank %d: %s\n", rank, message.c_str());
  std::fflush(stderr);
  PMPI_Abort(MPI_COMM_WORLD, 2);
  std::_Exit(2);
}

std::string json_string(std::string_view text)
{
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string mpi_library_version()
{
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  PMPI_Get_library_version(text, &length);
  std::string version(text, static_cast<size_t>(length > 0 ? length : 0));
  version = version.substr(0, version.find_first_of("\r\n"));
  for (char& c : version)
    if (c == '\t')
      c = ' ';
  while (not version.empty() && (version.back() == ' ' || version.back() == ',' || version.back() == '\0'))
    version.pop_back();
  return version;
}

std::string host_name()
{
  utsname names{};
  return uname(&names) == 0 ? names.nodename : "unknown";
}

std::string format_double(double value)
{
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

} // namespace

// ------------------------------------------------------------------------------------------------------- life cycle

Recorder::Recorder(Config config, int rank, int size) : config_(std::move(config)), rank_(rank), size_(size) {}

uint64_t Recorder::now_ns()
{
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ULL + static_cast<uint64_t>(now.tv_nsec);
}

void Recorder::open_outputs()
{
  std::error_code error;
  std::filesystem::create_directories(config_.directory, error);
  if (error && not std::filesystem::is_directory(config_.directory))
    abort_run(rank_, "cannot create MPISIM_TRACE_DIR '" + config_.directory + "': " + error.message());
  std::string base = config_.directory + "/rank-" + std::to_string(rank_);
  if (not trace_.open(base + ".txt", rank_))
    abort_run(rank_, "cannot write '" + base + ".txt': " + std::strerror(errno));
  if (not timeline_.open(base + ".json", rank_))
    abort_run(rank_, "cannot write '" + base + ".json': " + std::strerror(errno));
}

void Recorder::start(std::string_view call, uint64_t init_start_ns, int thread_level)
{
  int rank = 0;
  int size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  Config config;
  try {
    config = Config::from_environment();
  } catch (const InputError& error) {
    abort_run(rank, error.what());
  }
  g_thread = pthread_self();
  g_owner = std::make_unique<Recorder>(std::move(config), rank, size);
  Recorder& rec = *g_owner;
  rec.comms_.init(rank, size);
  rec.types_.init();
  rec.open_outputs();
  std::string fallback = rec.meter_.open(rec.config_.counter, rec.config_.speed);
  if (not fallback.empty()) {
    rec.note("hardware instruction counts unavailable, computation measured as CPU time", fallback);
    if (rank == 0 && not rec.config_.quiet)
      std::fprintf(stderr, "mpisim-trace: warning: cannot count instructions (%s); measuring CPU time x %g flop/s\n",
                   fallback.c_str(), rec.config_.speed);
  }

  // A common time origin without synchronised clocks: ranks leave a barrier at (nearly) the same instant; each
  // takes its local date there, and time 0 is put `max over ranks of (barrier exit - MPI_Init start)` before it, so
  // that the earliest-starting MPI_Init begins at 0 and no date is negative.
  PMPI_Barrier(MPI_COMM_WORLD);
  uint64_t synchronised = now_ns();
  long long lead = static_cast<long long>(synchronised - init_start_ns);
  long long longest = lead;
  PMPI_Allreduce(&lead, &longest, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  rec.origin_ns_ = synchronised - static_cast<uint64_t>(longest);

  const char* counter =
      rec.meter_.counter() == Counter::Instructions ? "instructions (hardware counter)" : "thread CPU time";
  rec.trace_.comment("mpisim-trace " MPISIM_VERSION ": SimGrid time-independent trace of rank " + std::to_string(rank) +
                     " of " + std::to_string(size) + " (MPI_COMM_WORLD ranks)");
  rec.mpi_library_ = mpi_library_version();
  rec.trace_.comment("mpi: " + rec.mpi_library_ + "; host: " + host_name());
  rec.trace_.comment("compute: " + std::string(counter) +
                     (rec.meter_.counter() == Counter::CpuTime ? " x " + format_double(rec.config_.speed) + " flop/s"
                                                               : std::string()) +
                     " (meter cost subtracted: " + std::to_string(rec.meter_.bias()) +
                     (rec.meter_.counter() == Counter::CpuTime ? " ns" : " instructions") + " per burst)" +
                     "; bursts under " + format_double(rec.config_.min_compute) + " s skipped; sub-communicator " +
                     "collectives: " + subcomm_mode_name(rec.config_.subcomm));
  rec.trace_.begin("init").end();
  if (thread_level == MPI_THREAD_MULTIPLE)
    rec.note("MPI_THREAD_MULTIPLE: only the thread that called MPI_Init is recorded", std::string(call));

  uint64_t end = now_ns();
  rec.timeline_.event(call, static_cast<long long>(init_start_ns - rec.origin_ns_),
                      static_cast<long long>(end - init_start_ns), {}, rec.trace_.take_action_count());
  ++rec.calls_;
  rec.meter_at_exit_ = rec.meter_.read();
  rec.exit_wall_ns_ = now_ns();
  g_recorder.store(&rec, std::memory_order_release);
}

Recorder* Recorder::enter()
{
  Recorder* rec = g_recorder.load(std::memory_order_acquire);
  if (rec == nullptr || t_depth > 0)
    return nullptr;
  if (not pthread_equal(pthread_self(), g_thread)) {
    g_other_thread_calls.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  return rec;
}

uint64_t Recorder::begin_call()
{
  ++t_depth;
  uint64_t wall = now_ns();
  uint64_t gap = wall - exit_wall_ns_;
  if (meter_.counter() == Counter::CpuTime && static_cast<double>(gap) * 1e-9 < config_.min_compute) {
    // Less wall-clock time than the threshold since the previous call: less CPU time too, so the burst is skipped
    // whatever its exact value, and the thread-CPU-clock system call is saved (back-to-back calls such as an
    // MPI_Irecv, MPI_Isend, MPI_Waitall sequence then cost no system call at all).
    if (gap > 0) {
      dropped_seconds_ += static_cast<double>(gap) * 1e-9;
      ++dropped_bursts_;
    }
    entry_reading_ = meter_at_exit_ + gap;
    entry_wall_ns_ = wall;
  } else {
    uint64_t reading = meter_.read();
    entry_reading_ = reading;
    entry_wall_ns_ = now_ns();
    uint64_t delta = meter_.work(meter_at_exit_, reading);
    double seconds = meter_.seconds(delta);
    if (seconds > 0 && seconds >= config_.min_compute) {
      trace_.begin("compute").add_flops(meter_.flops(delta)).end();
    } else if (delta > 0) {
      dropped_seconds_ += seconds;
      ++dropped_bursts_;
    }
  }
  trace_.take_action_count(); // the compute line is not the call's
  return entry_wall_ns_;
}

void Recorder::end_call(std::string_view name, uint64_t start_ns, const CallArgs& args)
{
  uint64_t end = now_ns();
  timeline_.event(name, static_cast<long long>(start_ns - origin_ns_), static_cast<long long>(end - start_ns), args,
                  trace_.take_action_count());
  ++calls_;
  --t_depth;
  // Last: the recorder's own work above is not computation. A call this short cannot have been descheduled, so its
  // CPU time is its wall-clock time, taken from the vDSO clock (tens of ns) instead of a thread-CPU-clock system
  // call (0.7 us on a virtual machine). The error is the wall-clock time the thread did not run during the call:
  // none unless it slept in the kernel, and then under kShortCallNs.
  uint64_t now = now_ns();
  if (meter_.counter() == Counter::CpuTime && now - entry_wall_ns_ < kShortCallNs) {
    meter_at_exit_ = entry_reading_ + (now - entry_wall_ns_);
    exit_wall_ns_ = now;
  } else {
    meter_at_exit_ = meter_.read();
    exit_wall_ns_ = now_ns();
  }
}

void Recorder::file_completed(MPI_Request handle)
{
  FileRequest request;
  if (file_requests_.take(handle, request))
    trace_.begin("file_wait").add(request.file).add(request.number).end();
}

void Recorder::note(const std::string& kind, const std::string& detail)
{
  for (Note& note : notes_) {
    if (note.kind == kind) {
      ++note.count;
      return;
    }
  }
  notes_.push_back({kind, detail, 1});
}

void Recorder::finalize_begin()
{
  trace_.begin("finalize").end();
  int dropped = trace_.drop_unresolved();
  if (dropped > 0)
    note("wildcard receives never completed: their lines were dropped", std::to_string(dropped) + " lines");
  long long other = g_other_thread_calls.load();
  if (other > 0)
    note("MPI calls from threads other than the one that called MPI_Init were not recorded",
         std::to_string(other) + " calls");
  if (dropped_bursts_ > 0)
    trace_.comment("computation bursts under the threshold, not written: " + std::to_string(dropped_bursts_) +
                   ", at most " + format_double(dropped_seconds_) + " s in total");
  for (const Note& n : notes_)
    trace_.comment("note: " + n.kind + " (" + std::to_string(n.count) + "x; first: " + n.first_detail + ")");
  trace_.close();

  if (rank_ == 0) {
    // Rank i's file on line i, relative to the index (SimGrid resolves these paths from the working directory: run
    // `smpirun -replay` from this folder; mpisim tries the index's folder first).
    std::string index = config_.directory + "/index.txt";
    std::string partial = index + ".part";
    if (std::FILE* out = std::fopen(partial.c_str(), "w")) {
      for (int r = 0; r < size_; ++r)
        std::fprintf(out, "rank-%d.txt\n", r);
      bool written = std::fclose(out) == 0;
      if (written)
        std::rename(partial.c_str(), index.c_str());
    } else {
      std::fprintf(stderr, "mpisim-trace: cannot write %s: %s\n", index.c_str(), std::strerror(errno));
    }
  }
}

void Recorder::finalize_end(uint64_t start_ns)
{
  uint64_t end = now_ns();
  timeline_.event("MPI_Finalize", static_cast<long long>(start_ns - origin_ns_), static_cast<long long>(end - start_ns),
                  {}, 1);
  ++calls_;
  std::string other =
      "{\"mpisim_version\":" + json_string(MPISIM_VERSION) + ",\"rank\":" + std::to_string(rank_) +
      ",\"world_size\":" + std::to_string(size_) + ",\"host\":" + json_string(host_name()) +
      ",\"mpi_library\":" + json_string(mpi_library_) + ",\"counter\":" + json_string(counter_name(meter_.counter())) +
      ",\"speed\":" + format_double(config_.speed) + ",\"min_compute\":" + format_double(config_.min_compute) +
      ",\"subcomm\":" + json_string(subcomm_mode_name(config_.subcomm)) + ",\"calls\":" + std::to_string(calls_) +
      ",\"clock\":\"microseconds since the start of the earliest MPI_Init; ranks aligned by a "
      "barrier at the end of MPI_Init\"}";
  timeline_.close(other);
  if (rank_ == 0 && not notes_.empty() && not config_.quiet) {
    for (const Note& n : notes_)
      std::fprintf(stderr, "mpisim-trace: note: %s (%lldx; first: %s)\n", n.kind.c_str(), n.count,
                   n.first_detail.c_str());
    std::fprintf(stderr, "mpisim-trace: every rank's notes are at the end of its trace file in %s\n",
                 config_.directory.c_str());
  }
}

void Recorder::stop()
{
  g_recorder.store(nullptr, std::memory_order_release);
  g_owner.reset();
}

// ------------------------------------------------------------------------------------------------- point-to-point

void Recorder::blocking_send(MPI_Comm comm, int dst, int tag, int count, MPI_Datatype type, CallArgs& args)
{
  auto c = comms_.get(comm);
  args.comm = c->id;
  args.bytes = Datatypes::bytes(count, type);
  args.tag = tag;
  args.has_tag = true;
  if (dst == MPI_PROC_NULL)
    return;
  int peer = c->to_world(dst);
  args.peer = peer;
  TiCount n = types_.convert(count, type);
  trace_.begin("send").add(peer).add(tag).add(n.count).add(n.datatype).end();
}

void Recorder::blocking_recv(MPI_Comm comm, int src, int tag, int count, MPI_Datatype type, const MPI_Status& status,
                             CallArgs& args)
{
  auto c = comms_.get(comm);
  args.comm = c->id;
  args.bytes = Datatypes::bytes(count, type);
  int source = src == MPI_ANY_SOURCE ? status.MPI_SOURCE : src;
  int actual_tag = tag == MPI_ANY_TAG ? status.MPI_TAG : tag;
  args.tag = actual_tag;
  args.has_tag = true;
  if (source == MPI_PROC_NULL || source < 0)
    return;
  int peer = c->to_world(source);
  args.peer = peer;
  TiCount n = types_.convert(count, type);
  trace_.begin("recv").add(peer).add(actual_tag).add(n.count).add(n.datatype).end();
}

void Recorder::sendrecv(MPI_Comm comm, int dst, int sendtag, int sendcount, MPI_Datatype sendtype, int src, int recvtag,
                        int recvcount, MPI_Datatype recvtype, const MPI_Status& status, CallArgs& args)
{
  auto c = comms_.get(comm);
  args.comm = c->id;
  args.bytes = Datatypes::bytes(sendcount, sendtype);
  args.tag = sendtag;
  args.has_tag = true;
  int source = src == MPI_ANY_SOURCE ? status.MPI_SOURCE : src;
  int actual_tag = recvtag == MPI_ANY_TAG ? status.MPI_TAG : recvtag;
  bool sends = dst != MPI_PROC_NULL;
  bool receives = source != MPI_PROC_NULL && source >= 0;
  TiCount out = types_.convert(sendcount, sendtype);
  TiCount in = types_.convert(recvcount, recvtype);
  if (sends)
    args.peer = c->to_world(dst);
  else if (receives)
    args.peer = c->to_world(source);

  if (sends && receives && sendtag == 0 && actual_tag == 0) {
    // The replay's sendRecv sends and receives with tag 0: exact only for tag-0 exchanges.
    trace_.begin("sendRecv").add(out.count).add(c->to_world(dst)).add(in.count).add(c->to_world(source));
    trace_.add(out.datatype).add(in.datatype).end();
  } else if (sends && receives) {
    // The same exchange with its real tags: post the send, receive, complete the send.
    int to = c->to_world(dst);
    trace_.begin("isend").add(to).add(sendtag).add(out.count).add(out.datatype).end();
    trace_.begin("recv").add(c->to_world(source)).add(actual_tag).add(in.count).add(in.datatype).end();
    trace_.begin("wait").add(rank_).add(to).add(sendtag).end();
  } else if (sends) {
    trace_.begin("send").add(c->to_world(dst)).add(sendtag).add(out.count).add(out.datatype).end();
  } else if (receives) {
    trace_.begin("recv").add(c->to_world(source)).add(actual_tag).add(in.count).add(in.datatype).end();
  }
}

void Recorder::isend(MPI_Request request, MPI_Comm comm, int dst, int tag, int count, MPI_Datatype type, CallArgs& args)
{
  auto c = comms_.get(comm);
  args.comm = c->id;
  args.bytes = Datatypes::bytes(count, type);
  args.tag = tag;
  args.has_tag = true;
  if (dst == MPI_PROC_NULL || request == MPI_REQUEST_NULL)
    return;
  int peer = c->to_world(dst);
  args.peer = peer;
  TiCount n = types_.convert(count, type);
  trace_.begin("isend").add(peer).add(tag).add(n.count).add(n.datatype).end();
  TrackedRequest tracked;
  tracked.src = rank_;
  tracked.dst = peer;
  tracked.tag = tag;
  tracked.comm = std::move(c);
  requests_.add(request, std::move(tracked));
  ++active_;
}

void Recorder::irecv(MPI_Request request, MPI_Comm comm, int src, int tag, int count, MPI_Datatype type, CallArgs& args)
{
  auto c = comms_.get(comm);
  args.comm = c->id;
  args.bytes = Datatypes::bytes(count, type);
  if (tag != MPI_ANY_TAG) {
    args.tag = tag;
    args.has_tag = true;
  }
  if (src == MPI_PROC_NULL || request == MPI_REQUEST_NULL)
    return;
  TrackedRequest tracked;
  tracked.receive = true;
  tracked.dst = rank_;
  tracked.any_source = src == MPI_ANY_SOURCE;
  tracked.any_tag = tag == MPI_ANY_TAG;
  tracked.src = tracked.any_source ? -1 : c->to_world(src);
  tracked.tag = tag;
  if (not tracked.any_source)
    args.peer = tracked.src;
  TiCount n = types_.convert(count, type);
  trace_.begin("irecv");
  if (tracked.any_source)
    trace_.add_source_placeholder();
  else
    trace_.add(tracked.src);
  if (tracked.any_tag)
    trace_.add_tag_placeholder();
  else
    trace_.add(tag);
  trace_.add(n.count).add(n.datatype);
  if (tracked.any_source || tracked.any_tag) {
    tracked.serial = ++next_serial_;
    trace_.end_deferred(tracked.serial);
  } else {
    trace_.end();
  }
  tracked.comm = std::move(c);
  requests_.add(request, std::move(tracked));
  ++active_;
}

void Recorder::persistent(MPI_Request request, bool receive, MPI_Comm comm, int peer, int tag, int count,
                          MPI_Datatype type)
{
  if (request == MPI_REQUEST_NULL)
    return;
  TrackedRequest tracked;
  tracked.persistent = true;
  tracked.active = false;
  tracked.receive = receive;
  tracked.peer = peer;
  tracked.posted_tag = tag;
  tracked.count = types_.convert(count, type);
  tracked.comm = comms_.get(comm);
  requests_.add(request, std::move(tracked));
}

void Recorder::start_persistent(MPI_Request request, CallArgs& args)
{
  TrackedRequest* persistent = requests_.persistent(request);
  if (persistent == nullptr || persistent->active)
    return;
  TrackedRequest& r = *persistent;
  args.comm = r.comm->id;
  if (r.posted_tag != MPI_ANY_TAG) {
    args.tag = r.posted_tag;
    args.has_tag = true;
  }
  if (r.peer == MPI_PROC_NULL)
    return;
  r.active = true;
  ++active_;
  if (not r.receive) {
    r.src = rank_;
    r.dst = r.comm->to_world(r.peer);
    r.tag = r.posted_tag;
    args.peer = r.dst;
    trace_.begin("isend").add(r.dst).add(r.tag).add(r.count.count).add(r.count.datatype).end();
    return;
  }
  r.dst = rank_;
  r.any_source = r.peer == MPI_ANY_SOURCE;
  r.any_tag = r.posted_tag == MPI_ANY_TAG;
  r.src = r.any_source ? -1 : r.comm->to_world(r.peer);
  r.tag = r.posted_tag;
  trace_.begin("irecv");
  if (r.any_source)
    trace_.add_source_placeholder();
  else
    trace_.add(r.src);
  if (r.any_tag)
    trace_.add_tag_placeholder();
  else
    trace_.add(r.tag);
  trace_.add(r.count.count).add(r.count.datatype);
  if (r.any_source || r.any_tag) {
    r.serial = ++next_serial_;
    trace_.end_deferred(r.serial);
  } else {
    r.serial = 0;
    args.peer = r.src;
    trace_.end();
  }
}

// ------------------------------------------------------------------------------------------------------ completion

std::optional<TrackedRequest> Recorder::active_request(MPI_Request handle) const
{
  const TrackedRequest* request = requests_.active(handle);
  if (request == nullptr)
    return std::nullopt;
  return *request;
}

void Recorder::test_line(MPI_Request handle)
{
  const TrackedRequest* request = requests_.active(handle);
  if (request == nullptr)
    return;
  const TrackedRequest& r = *request;
  trace_.begin("test");
  if (r.any_source && r.serial != 0)
    trace_.add_source_placeholder();
  else
    trace_.add(r.src);
  trace_.add(r.dst);
  if (r.any_tag && r.serial != 0)
    trace_.add_tag_placeholder();
  else
    trace_.add(r.tag);
  if (r.serial != 0)
    trace_.end_deferred(r.serial);
  else
    trace_.end();
}

void Recorder::resolve(TrackedRequest& r, const MPI_Status& status)
{
  if (r.any_source)
    r.src = status.MPI_SOURCE >= 0 ? r.comm->to_world(status.MPI_SOURCE) : -1;
  if (r.any_tag)
    r.tag = status.MPI_TAG;
  if (r.src < 0)
    trace_.drop(r.serial, "completed without a source (MPI_PROC_NULL)");
  else
    trace_.resolve(r.serial, r.src, r.tag);
  r.serial = 0;
}

void Recorder::completed(MPI_Request handle, const MPI_Status* status, bool quiet)
{
  TrackedRequest* request = requests_.active(handle);
  if (request == nullptr)
    return;
  TrackedRequest& r = *request;
  int cancelled = 0;
  if (status != nullptr)
    PMPI_Test_cancelled(status, &cancelled);
  bool write_wait = not quiet;
  if (cancelled != 0) {
    if (r.serial != 0)
      trace_.drop(r.serial, "cancelled");
    else
      note("cancelled requests stay in the trace (the replay will wait for them)",
           std::string(r.receive ? "irecv from " : "isend to ") + std::to_string(r.receive ? r.src : r.dst));
    r.serial = 0;
    write_wait = false;
  } else if (r.serial != 0) {
    if (status != nullptr) {
      resolve(r, *status);
    } else {
      trace_.drop(r.serial, "completed without a status");
      r.serial = 0;
      write_wait = false;
    }
  }
  if (write_wait && r.src >= 0)
    trace_.begin("wait").add(r.src).add(r.dst).add(r.tag).end();
  --active_;
  requests_.finish(handle);
}

void Recorder::request_freed(MPI_Request handle)
{
  if (const TrackedRequest* r = requests_.active(handle)) {
    --active_;
    if (r->serial != 0)
      trace_.drop(r->serial, "freed by MPI_Request_free before completing: its source is unknown");
    else
      ++orphans_;
  }
  requests_.free(handle);
}

} // namespace mpisim::record
