// OTF2 archives (written by Score-P and other tools) read into the replayer's typed actions, through the OTF2 reader
// library. The mapping and what it drops are in docs/otf2.md; in short:
//  - ranks: the locations of the MPI "communication locations" group (OTF2_GROUP_TYPE_COMM_LOCATIONS), in its order
//    (without one: every CPU-thread location, in definition order);
//  - MpiSend/MpiRecv -> send/recv; MpiIsend + MpiIsendComplete -> isend + wait; MpiIrecvRequest + MpiIrecv -> irecv
//    (posted at the request, its peer, tag and size taken from the completion) + wait; a call holding several blocking
//    events (MPI_Sendrecv) -> their non-blocking forms and a wait each, so that two ranks exchanging do not deadlock;
//  - MpiCollectiveBegin/End -> the collective, on its communicator (MPI_COMM_WORLD, or one the trace set makes),
//    sizes from OTF2's per-rank sent/received totals as Score-P computes them; v-collectives take each rank's block
//    from the other members' records of the same call (alltoallv/w: estimated from the totals); collectives of one
//    rank (MPI_COMM_SELF) are dropped;
//  - peers and roots are ranks of the event's communicator: turned into world ranks through the communicator's group;
//  - the time a rank spends outside MPI, between two MPI calls (Enter/Leave of MPI regions, or the events themselves
//    when the trace has no regions), becomes `compute` at the host speed (TraceFormatOptions).
// The archive is read whole when opened (48 bytes per action), so every error comes before the simulation starts.
#include "common/Errors.hpp"
#include "replay/ActionSizes.hpp"
#include "replay/RankSources.hpp"
#include "replay/TraceFormat.hpp"

#include <otf2/otf2.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace mpisim::replay {

namespace {

namespace fs = std::filesystem;

// ------------------------------------------------------------------------------------------------ which archive

bool ends_with_otf2(const std::string& path)
{
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".otf2";
}

// An archive directory holds its anchor file, `NAME.otf2`, next to the `NAME/` folder of event files.
std::optional<std::string> anchor_in_directory(const std::string& dir)
{
  std::error_code error;
  std::optional<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.is_regular_file(error) && ends_with_otf2(entry.path().string())) {
      if (found && *found < entry.path().string())
        continue; // several anchors: the first by name, so that the choice does not depend on the listing order
      found = entry.path().string();
    }
  }
  return found;
}

bool recognises_otf2(const std::string& path)
{
  std::error_code error;
  if (fs::is_directory(path, error))
    return anchor_in_directory(path).has_value();
  return ends_with_otf2(path);
}

std::string anchor_file(const std::string& path)
{
  std::error_code error;
  if (fs::is_directory(path, error))
    return *anchor_in_directory(path);
  if (not fs::exists(path, error))
    throw InputError(path + ": no such OTF2 anchor file");
  if (not fs::is_regular_file(path, error))
    throw InputError(path + ": not a regular file");
  return path;
}

// ------------------------------------------------------------------------------------- the library's own errors

// The OTF2 library prints its errors on stderr by default; the last one is kept here instead, to end up in the one
// line that names the file.
std::string& last_library_error()
{
  static std::string message;
  return message;
}

OTF2_ErrorCode keep_library_error(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* format,
                                  va_list arguments)
{
  char text[512];
  std::vsnprintf(text, sizeof text, format ? format : "", arguments);
  last_library_error() = std::string(OTF2_Error_GetName(code)) + (text[0] ? std::string(": ") + text : "");
  return code;
}

class LibraryErrors {
public:
  LibraryErrors() : previous_(OTF2_Error_RegisterCallback(keep_library_error, nullptr))
  {
    last_library_error().clear();
  }
  ~LibraryErrors() { OTF2_Error_RegisterCallback(previous_, nullptr); }
  LibraryErrors(const LibraryErrors&) = delete;
  LibraryErrors& operator=(const LibraryErrors&) = delete;

private:
  OTF2_ErrorCallback previous_;
};

[[noreturn]] void fail(const std::string& file, const std::string& what)
{
  throw InputError(file + ": " + what);
}

void check(OTF2_ErrorCode code, const std::string& file, const std::string& doing)
{
  if (code == OTF2_SUCCESS)
    return;
  std::string detail = last_library_error().empty() ? OTF2_Error_GetDescription(code) : last_library_error();
  fail(file, "not a readable OTF2 archive (" + doing + ": " + detail + ")");
}

struct ReaderCloser {
  void operator()(OTF2_Reader* reader) const { OTF2_Reader_Close(reader); }
};
using ReaderHandle = std::unique_ptr<OTF2_Reader, ReaderCloser>;

// -------------------------------------------------------------------------------------------- global definitions

struct Group {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  std::vector<uint64_t> members;
};

struct Definitions {
  double ticks_per_second = 1;
  std::unordered_map<OTF2_StringRef, std::string> strings;
  std::unordered_map<OTF2_RegionRef, bool> region_is_mpi;
  std::vector<OTF2_LocationRef> cpu_locations; // in definition order
  std::unordered_map<OTF2_GroupRef, Group> groups;
  std::unordered_map<OTF2_CommRef, OTF2_GroupRef> comm_groups;
  std::vector<OTF2_RegionRef> pending_region_names; // regions named by strings defined later
  std::unordered_map<OTF2_RegionRef, OTF2_StringRef> region_names;
  std::unordered_map<OTF2_RegionRef, OTF2_Paradigm> region_paradigms;

  // Filled from the above once read.
  std::vector<OTF2_LocationRef> rank_locations;                  // world rank -> location
  std::unordered_map<OTF2_CommRef, std::vector<int>> comm_ranks; // communicator rank -> world rank (empty: self)
};

OTF2_CallbackCode on_clock(void* data, uint64_t resolution, uint64_t, uint64_t, uint64_t)
{
  static_cast<Definitions*>(data)->ticks_per_second = resolution > 0 ? static_cast<double>(resolution) : 1.0;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* text)
{
  static_cast<Definitions*>(data)->strings[self] = text ? text : "";
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t,
                            uint32_t)
{
  auto& defs = *static_cast<Definitions*>(data);
  defs.region_names[self] = name;
  defs.region_paradigms[self] = paradigm;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType type, uint64_t,
                              OTF2_LocationGroupRef)
{
  if (type == OTF2_LOCATION_TYPE_CPU_THREAD)
    static_cast<Definitions*>(data)->cpu_locations.push_back(self);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm,
                           OTF2_GroupFlag, uint32_t count, const uint64_t* members)
{
  static_cast<Definitions*>(data)->groups[self] = Group{type, std::vector<uint64_t>(members, members + count)};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void* data, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef,
                          OTF2_CommFlag)
{
  static_cast<Definitions*>(data)->comm_groups[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}

// A region is an MPI call when its paradigm says so, or, for writers that leave the paradigm unknown, its name
// starts with "MPI_".
void classify_regions(Definitions& defs)
{
  for (const auto& [region, name] : defs.region_names) {
    const auto text = defs.strings.find(name);
    const bool named_mpi = text != defs.strings.end() && text->second.starts_with("MPI_");
    defs.region_is_mpi[region] = defs.region_paradigms[region] == OTF2_PARADIGM_MPI || named_mpi;
  }
}

void find_ranks(Definitions& defs, const std::string& file)
{
  for (const auto& [ref, group] : defs.groups)
    if (group.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
      if (not defs.rank_locations.empty())
        fail(file, "more than one group of MPI communication locations: only MPI traces of one job are replayed");
      defs.rank_locations.assign(group.members.begin(), group.members.end());
    }
  if (defs.rank_locations.empty())
    defs.rank_locations = defs.cpu_locations;
  if (defs.rank_locations.empty())
    fail(file, "no MPI rank (no location of type CPU thread, no MPI communication locations group)");
  const int world = static_cast<int>(defs.rank_locations.size());
  for (const auto& [comm, group_ref] : defs.comm_groups) {
    const auto group = defs.groups.find(group_ref);
    if (group == defs.groups.end())
      fail(file, "communicator " + std::to_string(comm) + " names group " + std::to_string(group_ref) +
                     ", which is not defined");
    std::vector<int>& ranks = defs.comm_ranks[comm];
    if (group->second.type == OTF2_GROUP_TYPE_COMM_SELF)
      continue; // empty: each rank alone
    std::vector<bool> seen(static_cast<size_t>(world), false);
    for (uint64_t member : group->second.members) {
      if (member >= static_cast<uint64_t>(world))
        fail(file, "communicator " + std::to_string(comm) + " has member " + std::to_string(member) +
                       ", but the trace has " + std::to_string(world) + " MPI ranks");
      if (seen[member])
        fail(file, "communicator " + std::to_string(comm) + " lists rank " + std::to_string(member) + " twice");
      seen[member] = true;
      ranks.push_back(static_cast<int>(member));
    }
  }
}

Definitions read_definitions(OTF2_Reader* reader, const std::string& file)
{
  Definitions defs;
  OTF2_GlobalDefReader* def_reader = OTF2_Reader_GetGlobalDefReader(reader);
  if (def_reader == nullptr)
    check(OTF2_ERROR_INVALID_ARGUMENT, file, "opening the global definitions");
  OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(callbacks, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(callbacks, on_string);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(callbacks, on_region);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, on_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(callbacks, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(callbacks, on_comm);
  OTF2_ErrorCode code = OTF2_Reader_RegisterGlobalDefCallbacks(reader, def_reader, callbacks, &defs);
  OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
  check(code, file, "registering the definition callbacks");
  uint64_t read = 0;
  check(OTF2_Reader_ReadAllGlobalDefinitions(reader, def_reader, &read), file, "reading the global definitions");
  classify_regions(defs);
  find_ranks(defs, file);
  return defs;
}

// ------------------------------------------------------------------------------------------------------- events

// One collective as a rank recorded it; v-collectives need every rank's record of the same call.
struct CollectiveRecord {
  size_t action = 0; // index in the rank's actions
  OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
  OTF2_CommRef comm = 0;
  uint32_t root = OTF2_UNDEFINED_UINT32; // in the communicator's ranks
  double sent = 0;
  double received = 0;
};

// Turns one location's events into the actions of its rank.
class RankBuilder {
public:
  RankBuilder(const Definitions& defs, const std::string& file, int rank) : defs_(defs), file_(file), rank_(rank) {}

  // -- MPI calls: time outside them is computation
  void enter_mpi(OTF2_TimeStamp time)
  {
    if (depth_++ > 0)
      return;
    if (started_ && time > left_at_)
      push_compute(static_cast<double>(time - left_at_) / defs_.ticks_per_second);
    started_ = true;
  }
  void leave_mpi(OTF2_TimeStamp time)
  {
    if (depth_ == 0)
      return; // a Leave without its Enter (a trace cut at its start): nothing to close
    if (--depth_ > 0)
      return;
    flush_blocking();
    left_at_ = time;
  }
  bool in_call() const { return depth_ > 0; }
  void region(OTF2_RegionRef region, OTF2_TimeStamp time, bool enter)
  {
    const auto known = defs_.region_is_mpi.find(region);
    if (known == defs_.region_is_mpi.end() || not known->second)
      return;
    enter ? enter_mpi(time) : leave_mpi(time);
  }

  // -- point-to-point
  void send(OTF2_TimeStamp time, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
  {
    Bracket call(*this, time);
    blocking_.push_back(p2p(ActionKind::Send, world_rank(comm, receiver), tag, bytes));
  }
  void recv(OTF2_TimeStamp time, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
  {
    Bracket call(*this, time);
    blocking_.push_back(p2p(ActionKind::Recv, world_rank(comm, sender), tag, bytes));
  }
  void isend(OTF2_TimeStamp time, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request)
  {
    Bracket call(*this, time);
    TraceAction action = p2p(ActionKind::Isend, world_rank(comm, receiver), tag, bytes);
    sends_[request] = {action.src, action.dst, action.tag};
    push(std::move(action));
  }
  void isend_complete(OTF2_TimeStamp time, uint64_t request)
  {
    Bracket call(*this, time);
    const auto found = sends_.find(request);
    if (found == sends_.end())
      return; // an isend begun before the trace: nothing was posted here
    push_wait(found->second);
    sends_.erase(found);
  }
  void irecv_request(OTF2_TimeStamp time, uint64_t request)
  {
    Bracket call(*this, time);
    TraceAction placeholder;
    placeholder.kind = ActionKind::Irecv;
    placeholder.dst = rank_;
    receives_[request] = actions_.size();
    push(std::move(placeholder));
    dropped_.back() = true; // until its completion says where it came from
  }
  void irecv(OTF2_TimeStamp time, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request)
  {
    Bracket call(*this, time);
    TraceAction done = p2p(ActionKind::Irecv, world_rank(comm, sender), tag, bytes);
    const Key key{done.src, done.dst, done.tag};
    const auto posted = receives_.find(request);
    if (posted == receives_.end()) {
      push(std::move(done)); // no request record: posted and completed here
    } else {
      TraceAction& placeholder = actions_[posted->second];
      placeholder = std::move(done);
      dropped_[posted->second] = false;
      receives_.erase(posted);
    }
    push_wait(key);
  }
  void cancelled(uint64_t request) { receives_.erase(request); } // its placeholder stays dropped

  // -- collectives
  void collective_begin(OTF2_TimeStamp time) { enter_mpi(time); }
  void collective_end(OTF2_TimeStamp time, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
                      uint64_t received)
  {
    const std::optional<ActionKind> kind = collective_kind(op);
    // A collective of one rank (MPI_COMM_SELF) exchanges nothing: only its time, which is not computation, is kept.
    const std::vector<int>* members = kind ? &comm_members(comm) : nullptr;
    if (members && members->size() > 1) {
      if (std::find(members->begin(), members->end(), rank_) == members->end())
        fail(file_, where() + ": collective on communicator " + std::to_string(comm) + ", which rank " +
                        std::to_string(rank_) + " is not a member of");
      flush_blocking();
      TraceAction action;
      action.kind = *kind;
      action.details = std::make_unique<ActionDetails>();
      if (root != OTF2_UNDEFINED_UINT32) {
        if (root >= members->size())
          fail(file_, where() + ": collective root " + std::to_string(root) + " is not a rank of communicator " +
                          std::to_string(comm));
        action.root = (*members)[root];
      }
      collectives_.push_back(
          {actions_.size(), op, comm, root, static_cast<double>(sent), static_cast<double>(received)});
      push(std::move(action));
    }
    leave_mpi(time);
  }

  void unsupported(const std::string& what) const { fail(file_, where() + ": unsupported " + what); }
  void set_event(uint64_t position) { event_ = position; }

  int rank() const { return rank_; }
  std::vector<TraceAction>& actions() { return actions_; }
  const std::vector<CollectiveRecord>& collectives() const { return collectives_; }

  // The actions, without the receives whose completion never came.
  std::vector<TraceAction> take_actions()
  {
    flush_blocking();
    std::vector<TraceAction> kept;
    kept.reserve(actions_.size());
    for (size_t i = 0; i < actions_.size(); ++i)
      if (not dropped_[i])
        kept.push_back(std::move(actions_[i]));
    return kept;
  }

private:
  struct Key {
    int32_t src, dst, tag;
  };
  // An MPI event outside any MPI region is a call of its own.
  struct Bracket {
    Bracket(RankBuilder& b, OTF2_TimeStamp t) : builder(b), time(t), bare(not b.in_call())
    {
      if (bare)
        builder.enter_mpi(time);
    }
    ~Bracket()
    {
      if (bare)
        builder.leave_mpi(time);
    }
    Bracket(const Bracket&) = delete;
    Bracket& operator=(const Bracket&) = delete;
    RankBuilder& builder;
    OTF2_TimeStamp time;
    bool bare;
  };

  std::string where() const
  {
    return "rank " + std::to_string(rank_) + " (location " + std::to_string(defs_.rank_locations[rank_]) + "), event " +
           std::to_string(event_);
  }

  const std::vector<int>& comm_members(OTF2_CommRef comm)
  {
    const auto found = defs_.comm_ranks.find(comm);
    if (found == defs_.comm_ranks.end())
      fail(file_, where() + ": communicator " + std::to_string(comm) + " is not defined");
    if (found->second.empty()) { // MPI_COMM_SELF
      self_ = {rank_};
      return self_;
    }
    return found->second;
  }
  int32_t world_rank(OTF2_CommRef comm, uint32_t peer)
  {
    const std::vector<int>& members = comm_members(comm);
    if (peer >= members.size())
      fail(file_, where() + ": peer " + std::to_string(peer) + " is not a rank of communicator " +
                      std::to_string(comm) + " (" + std::to_string(members.size()) + " ranks)");
    return members[peer];
  }
  TraceAction p2p(ActionKind kind, int32_t peer, uint32_t tag, uint64_t bytes) const
  {
    TraceAction action;
    action.kind = kind;
    const bool sending = kind == ActionKind::Send || kind == ActionKind::Isend;
    action.src = sending ? rank_ : peer;
    action.dst = sending ? peer : rank_;
    action.tag = static_cast<int32_t>(tag & 0x7fffffffu);
    action.amount = static_cast<double>(bytes);
    return action;
  }
  void push(TraceAction action)
  {
    flush_blocking();
    actions_.push_back(std::move(action));
    dropped_.push_back(false);
  }
  void push_wait(const Key& key)
  {
    TraceAction wait;
    wait.kind = ActionKind::Wait;
    wait.src = key.src;
    wait.dst = key.dst;
    wait.tag = key.tag;
    push(std::move(wait));
  }
  void push_compute(double seconds)
  {
    TraceAction compute;
    compute.kind = ActionKind::Compute;
    compute.amount = seconds; // in seconds until the stream scales it by the host speed
    push(std::move(compute));
  }
  // Blocking sends and receives of one call: one alone stays blocking; several (MPI_Sendrecv) are posted together and
  // waited for, as MPI lets them progress together.
  void flush_blocking()
  {
    if (blocking_.empty())
      return;
    std::vector<TraceAction> calls = std::move(blocking_);
    blocking_.clear();
    if (calls.size() == 1) {
      push(std::move(calls.front()));
      return;
    }
    std::vector<Key> keys;
    for (TraceAction& action : calls) {
      action.kind = action.kind == ActionKind::Send ? ActionKind::Isend : ActionKind::Irecv;
      keys.push_back({action.src, action.dst, action.tag});
      push(std::move(action));
    }
    for (const Key& key : keys)
      push_wait(key);
  }

  static std::optional<ActionKind> collective_kind(OTF2_CollectiveOp op)
  {
    switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER: return ActionKind::Barrier;
    case OTF2_COLLECTIVE_OP_BCAST: return ActionKind::Bcast;
    case OTF2_COLLECTIVE_OP_GATHER: return ActionKind::Gather;
    case OTF2_COLLECTIVE_OP_GATHERV: return ActionKind::GatherV;
    case OTF2_COLLECTIVE_OP_SCATTER: return ActionKind::Scatter;
    case OTF2_COLLECTIVE_OP_SCATTERV: return ActionKind::ScatterV;
    case OTF2_COLLECTIVE_OP_ALLGATHER: return ActionKind::AllGather;
    case OTF2_COLLECTIVE_OP_ALLGATHERV: return ActionKind::AllGatherV;
    case OTF2_COLLECTIVE_OP_ALLTOALL: return ActionKind::AllToAll;
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW: return ActionKind::AllToAllV;
    case OTF2_COLLECTIVE_OP_ALLREDUCE: return ActionKind::AllReduce;
    case OTF2_COLLECTIVE_OP_REDUCE: return ActionKind::Reduce;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: return ActionKind::ReduceScatter;
    case OTF2_COLLECTIVE_OP_SCAN: return ActionKind::Scan;
    case OTF2_COLLECTIVE_OP_EXSCAN: return ActionKind::Exscan;
    default: return std::nullopt; // handle creation and destruction (communicators, windows): nothing to replay
    }
  }

  const Definitions& defs_;
  const std::string& file_;
  int rank_;
  uint64_t event_ = 0;
  int depth_ = 0;
  bool started_ = false;
  OTF2_TimeStamp left_at_ = 0;
  std::vector<TraceAction> actions_;
  std::vector<bool> dropped_;
  std::vector<TraceAction> blocking_;
  std::unordered_map<uint64_t, Key> sends_;
  std::unordered_map<uint64_t, size_t> receives_;
  std::vector<CollectiveRecord> collectives_;
  std::vector<int> self_;
};

RankBuilder& builder_of(void* data, uint64_t position)
{
  auto& builder = *static_cast<RankBuilder*>(data);
  builder.set_event(position);
  return builder;
}

// The callbacks run inside the C library: exceptions are caught here and rethrown once it has returned.
struct EventContext {
  RankBuilder* builder;
  std::exception_ptr error;
};

template <typename F> OTF2_CallbackCode guarded(void* data, uint64_t position, F&& body)
{
  auto& context = *static_cast<EventContext*>(data);
  try {
    body(builder_of(context.builder, position));
    return OTF2_CALLBACK_SUCCESS;
  } catch (...) {
    context.error = std::current_exception();
    return OTF2_CALLBACK_INTERRUPT;
  }
}

OTF2_EvtReaderCallbacks* event_callbacks()
{
  OTF2_EvtReaderCallbacks* c = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList*, OTF2_RegionRef region) {
        return guarded(d, p, [&](RankBuilder& b) { b.region(region, t, true); });
      });
  OTF2_EvtReaderCallbacks_SetLeaveCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList*, OTF2_RegionRef region) {
        return guarded(d, p, [&](RankBuilder& b) { b.region(region, t, false); });
      });
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList*, uint32_t peer,
            OTF2_CommRef comm, uint32_t tag,
            uint64_t bytes) { return guarded(d, p, [&](RankBuilder& b) { b.send(t, peer, comm, tag, bytes); }); });
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList*, uint32_t peer,
            OTF2_CommRef comm, uint32_t tag,
            uint64_t bytes) { return guarded(d, p, [&](RankBuilder& b) { b.recv(t, peer, comm, tag, bytes); }); });
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(c, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t p, void* d,
                                                    OTF2_AttributeList*, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                                    uint64_t bytes, uint64_t request) {
    return guarded(d, p, [&](RankBuilder& b) { b.isend(t, peer, comm, tag, bytes, request); });
  });
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList*, uint64_t request) {
        return guarded(d, p, [&](RankBuilder& b) { b.isend_complete(t, request); });
      });
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList*, uint64_t request) {
        return guarded(d, p, [&](RankBuilder& b) { b.irecv_request(t, request); });
      });
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(c, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t p, void* d,
                                                    OTF2_AttributeList*, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                                    uint64_t bytes, uint64_t request) {
    return guarded(d, p, [&](RankBuilder& b) { b.irecv(t, peer, comm, tag, bytes, request); });
  });
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp, uint64_t p, void* d, OTF2_AttributeList*, uint64_t request) {
        return guarded(d, p, [&](RankBuilder& b) { b.cancelled(request); });
      });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList*) {
        return guarded(d, p, [&](RankBuilder& b) { b.collective_begin(t); });
      });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t p, void* d, OTF2_AttributeList*, OTF2_CollectiveOp op,
            OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t received) {
        return guarded(d, p, [&](RankBuilder& b) { b.collective_end(t, op, comm, root, sent, received); });
      });
  // Records mpisim cannot replay: refused rather than silently dropped, since the times would be wrong.
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp, uint64_t p, void* d, OTF2_AttributeList*, uint64_t) {
        return guarded(d, p, [&](RankBuilder& b) { b.unsupported("record NonBlockingCollectiveRequest"); });
      });
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(c, [](OTF2_LocationRef, OTF2_TimeStamp, uint64_t p, void* d,
                                                  OTF2_AttributeList*, OTF2_RmaWinRef, uint32_t, uint64_t, uint64_t) {
    return guarded(d, p, [&](RankBuilder& b) { b.unsupported("record RmaPut (one-sided MPI)"); });
  });
  OTF2_EvtReaderCallbacks_SetRmaGetCallback(c, [](OTF2_LocationRef, OTF2_TimeStamp, uint64_t p, void* d,
                                                  OTF2_AttributeList*, OTF2_RmaWinRef, uint32_t, uint64_t, uint64_t) {
    return guarded(d, p, [&](RankBuilder& b) { b.unsupported("record RmaGet (one-sided MPI)"); });
  });
  OTF2_EvtReaderCallbacks_SetUnknownCallback(
      c, [](OTF2_LocationRef, OTF2_TimeStamp, uint64_t p, void* d, OTF2_AttributeList*) {
        return guarded(d, p, [&](RankBuilder& b) { b.unsupported("record of a newer OTF2 version"); });
      });
  return c;
}

void read_events(OTF2_Reader* reader, const Definitions& defs, const std::string& file,
                 std::vector<RankBuilder>& builders)
{
  for (OTF2_LocationRef location : defs.rank_locations)
    check(OTF2_Reader_SelectLocation(reader, location), file, "selecting location " + std::to_string(location));
  // Local definitions hold the mapping tables of archives written unified later; writers without them are fine.
  if (OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS) {
    for (OTF2_LocationRef location : defs.rank_locations) {
      OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader, location);
      if (local == nullptr)
        continue;
      uint64_t read = 0;
      check(OTF2_Reader_ReadAllLocalDefinitions(reader, local, &read), file,
            "reading the local definitions of location " + std::to_string(location));
      OTF2_Reader_CloseDefReader(reader, local);
    }
    OTF2_Reader_CloseDefFiles(reader);
  }
  check(OTF2_Reader_OpenEvtFiles(reader), file, "opening the event files");
  OTF2_EvtReaderCallbacks* callbacks = event_callbacks();
  for (RankBuilder& builder : builders) {
    const OTF2_LocationRef location = defs.rank_locations[builder.rank()];
    OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader, location);
    if (events == nullptr) {
      OTF2_EvtReaderCallbacks_Delete(callbacks);
      check(OTF2_ERROR_INVALID_ARGUMENT, file, "opening the events of location " + std::to_string(location));
    }
    EventContext context{&builder, nullptr};
    OTF2_Reader_RegisterEvtCallbacks(reader, events, callbacks, &context);
    uint64_t read = 0;
    const OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalEvents(reader, events, &read);
    if (context.error) {
      OTF2_EvtReaderCallbacks_Delete(callbacks);
      std::rethrow_exception(context.error);
    }
    if (code != OTF2_SUCCESS) {
      OTF2_EvtReaderCallbacks_Delete(callbacks);
      check(code, file,
            "reading the events of rank " + std::to_string(builder.rank()) + " after " + std::to_string(read) +
                " events");
    }
    OTF2_Reader_CloseEvtReader(reader, events);
  }
  OTF2_EvtReaderCallbacks_Delete(callbacks);
  OTF2_Reader_CloseEvtFiles(reader);
}

// --------------------------------------------------------------------------------------- sizes of the collectives

// The records of the calls on one communicator, per member (its local rank), in call order.
using CallsByMember = std::vector<std::vector<const CollectiveRecord*>>;

std::string communicator_text(int32_t index, OTF2_CommRef comm)
{
  return index < 0 ? "MPI_COMM_WORLD" : "communicator " + std::to_string(comm);
}

CallsByMember calls_on(const std::vector<RankBuilder>& builders, OTF2_CommRef comm, const std::vector<int>& members)
{
  CallsByMember calls(members.size());
  for (size_t i = 0; i < members.size(); ++i)
    for (const CollectiveRecord& record : builders[static_cast<size_t>(members[i])].collectives())
      if (record.comm == comm)
        calls[i].push_back(&record);
  return calls;
}

// Every member calls the same sequence of collectives on the communicator (as MPI requires).
void check_same_calls(const CallsByMember& calls, const std::vector<int>& members, const std::string& where,
                      const std::string& file)
{
  for (size_t i = 1; i < calls.size(); ++i) {
    if (calls[i].size() != calls[0].size())
      fail(file, "rank " + std::to_string(members[i]) + " has " + std::to_string(calls[i].size()) + " collectives on " +
                     where + " where rank " + std::to_string(members[0]) + " has " + std::to_string(calls[0].size()));
    for (size_t k = 0; k < calls[0].size(); ++k)
      if (calls[i][k]->op != calls[0][k]->op)
        fail(file, "collective " + std::to_string(k) + " on " + where + " of rank " + std::to_string(members[i]) +
                       " is not the one rank " + std::to_string(members[0]) + " calls there (OTF2 collective " +
                       "operations " + std::to_string(calls[i][k]->op) + " and " + std::to_string(calls[0][k]->op) +
                       ")");
  }
}

// alltoallv/alltoallw: OTF2 keeps each rank's total sent (s) and received (v) bytes, not the per-peer sizes. The bytes
// from j to i are taken as s_j v_i / sum(v), rounded down: the estimate that keeps every rank's two totals (the
// independent, or maximum-entropy, table of the given row and column sums). docs/otf2.md says what it gets wrong.
double alltoallv_block(double sent_by_source, double received_by_destination, double total_received)
{
  return total_received > 0 ? std::floor(sent_by_source * (received_by_destination / total_received)) : 0;
}

// OTF2 gives each rank's bytes sent and received in total, as Score-P counts them (N ranks of the communicator, a
// rank's block b): bcast: root sends N b, every rank receives b; reduce, gather: every rank sends b, the root receives
// N b; scatter: the root sends N b, every rank receives b; allreduce, allgather, alltoall: N b both ways;
// reduce_scatter: receives N times its own block; scan: rank r receives (r+1) b; exscan: rank r sends (N-1-r) b and
// receives r b. The TI counts (per rank, per peer) are recovered from these, and v-collectives' arrays from every
// member's record of the call. `index`: the communicator's in the trace set (-1: MPI_COMM_WORLD).
void size_calls_on(std::vector<RankBuilder>& builders, const CallsByMember& calls, const std::vector<int>& members,
                   int32_t index)
{
  const size_t size = members.size();
  const double n = static_cast<double>(size);
  auto per_peer = [n](double total) { return std::floor(total / n); };
  for (size_t k = 0; k < calls[0].size(); ++k) {
    std::vector<double> sent(size), received(size);
    for (size_t i = 0; i < size; ++i) {
      sent[i] = calls[i][k]->sent;
      received[i] = calls[i][k]->received;
    }
    const double total_received = std::accumulate(received.begin(), received.end(), 0.0);
    for (size_t i = 0; i < size; ++i) {
      const CollectiveRecord& record = *calls[i][k];
      TraceAction& a = builders[static_cast<size_t>(members[i])].actions()[record.action];
      mpi::CollectiveCall& call = a.details->call;
      const double s = sent[i], v = received[i];
      switch (a.kind) {
      case ActionKind::Barrier: break;
      case ActionKind::Bcast: a.amount = v > 0 ? v : per_peer(s); break;
      case ActionKind::Reduce: a.amount = s; break;
      case ActionKind::AllReduce: a.amount = per_peer(s); break;
      case ActionKind::Gather: a.amount = a.amount2 = s; break;
      case ActionKind::Scatter: a.amount = a.amount2 = v; break;
      case ActionKind::AllGather:
      case ActionKind::AllToAll:
        a.amount = per_peer(s);
        a.amount2 = per_peer(v);
        break;
      case ActionKind::GatherV:
        a.amount = s;
        call.recv_counts = sent;
        a.amount2 = std::accumulate(sent.begin(), sent.end(), 0.0);
        break;
      case ActionKind::ScatterV:
        call.send_counts = received;
        a.amount = std::accumulate(received.begin(), received.end(), 0.0);
        a.amount2 = v;
        break;
      case ActionKind::AllGatherV:
        a.amount = per_peer(s);
        call.recv_counts.clear();
        for (double each : sent)
          call.recv_counts.push_back(per_peer(each));
        a.amount2 = std::accumulate(call.recv_counts.begin(), call.recv_counts.end(), 0.0);
        break;
      case ActionKind::AllToAllV:
        call.send_counts.clear();
        call.recv_counts.clear();
        for (size_t j = 0; j < size; ++j) {
          call.send_counts.push_back(alltoallv_block(s, received[j], total_received));
          call.recv_counts.push_back(alltoallv_block(sent[j], v, total_received));
        }
        a.amount = std::accumulate(call.send_counts.begin(), call.send_counts.end(), 0.0);
        a.amount2 = std::accumulate(call.recv_counts.begin(), call.recv_counts.end(), 0.0);
        break;
      case ActionKind::ReduceScatter:
        call.recv_counts.clear();
        for (double each : received)
          call.recv_counts.push_back(per_peer(each));
        a.amount = std::accumulate(call.recv_counts.begin(), call.recv_counts.end(), 0.0);
        break;
      case ActionKind::Scan: a.amount = std::floor(v / static_cast<double>(i + 1)); break;
      case ActionKind::Exscan: a.amount = size > 1 ? std::floor((s + v) / (n - 1)) : 0; break;
      default: break;
      }
      size_action(a); // MPI_BYTE counts: bytes as they are; fills the collective's call
      // The call runs on the communicator: its root is the communicator's rank (the action's stays a world rank).
      call.root = record.root == OTF2_UNDEFINED_UINT32 ? 0 : static_cast<int>(record.root);
      a.details->communicator = index;
    }
  }
}

bool is_world(const std::vector<int>& members, size_t world)
{
  if (members.size() != world)
    return false;
  for (size_t i = 0; i < world; ++i)
    if (members[i] != static_cast<int>(i))
      return false;
  return true;
}

// Sizes every rank's collectives and returns the communicators other than MPI_COMM_WORLD they run on (world ranks),
// in the order of their OTF2 references: ActionDetails::communicator indexes them.
std::vector<std::vector<int>> size_collectives(std::vector<RankBuilder>& builders, const Definitions& defs,
                                               const std::string& file)
{
  std::map<OTF2_CommRef, const std::vector<int>*> used;
  for (const RankBuilder& builder : builders)
    for (const CollectiveRecord& record : builder.collectives())
      used.emplace(record.comm, &defs.comm_ranks.at(record.comm));
  std::vector<std::vector<int>> communicators;
  for (const auto& [comm, members] : used) {
    int32_t index = -1;
    if (not is_world(*members, builders.size())) {
      index = static_cast<int32_t>(communicators.size());
      communicators.push_back(*members);
    }
    const CallsByMember calls = calls_on(builders, comm, *members);
    check_same_calls(calls, *members, communicator_text(index, comm), file);
    size_calls_on(builders, calls, *members, index);
  }
  return communicators;
}

// ------------------------------------------------------------------------------------------- the rank's source

class ActionListSource : public detail::RankSource {
public:
  ActionListSource(std::vector<TraceAction> actions, double host_speed)
      : actions_(std::move(actions)), host_speed_(host_speed)
  {
  }
  bool next(TraceAction& out) override
  {
    if (next_ == actions_.size())
      return false;
    out = std::move(actions_[next_++]);
    if (out.kind == ActionKind::Compute)
      out.amount *= host_speed_; // seconds -> flops
    out.line = static_cast<uint32_t>(next_);
    return true;
  }

private:
  std::vector<TraceAction> actions_;
  size_t next_ = 0;
  double host_speed_;
};

struct Otf2Trace {
  std::vector<std::vector<TraceAction>> ranks;
};

TraceSet open_otf2(const std::string& path, int np, const TraceFormatOptions& options)
{
  const std::string file = anchor_file(path);
  LibraryErrors errors;
  ReaderHandle reader(OTF2_Reader_Open(file.c_str()));
  if (not reader)
    check(OTF2_ERROR_FILE_INTERACTION, file, "opening the anchor file");
  check(OTF2_Reader_SetSerialCollectiveCallbacks(reader.get()), file, "setting up the reader");
  const Definitions defs = read_definitions(reader.get(), file);
  const int world = static_cast<int>(defs.rank_locations.size());
  if (np > world)
    fail(file, "--np " + std::to_string(np) + " but the trace has " + std::to_string(world) + " MPI ranks");
  if (np > 0 && np < world)
    fail(file,
         "--np " + std::to_string(np) + ": an OTF2 trace is replayed with all its " + std::to_string(world) + " ranks");
  std::vector<RankBuilder> builders;
  builders.reserve(static_cast<size_t>(world));
  for (int rank = 0; rank < world; ++rank)
    builders.emplace_back(defs, file, rank);
  read_events(reader.get(), defs, file, builders);
  std::vector<std::vector<int>> communicators = size_collectives(builders, defs, file);

  auto trace = std::make_shared<Otf2Trace>();
  for (RankBuilder& builder : builders)
    trace->ranks.push_back(builder.take_actions());
  return TraceSet::from_sources(
      world, file,
      [trace, options](int rank) -> std::unique_ptr<detail::RankSource> {
        return std::make_unique<ActionListSource>(std::move(trace->ranks[static_cast<size_t>(rank)]),
                                                  options.speed_of(rank));
      },
      std::move(communicators));
}

const RegisterTraceFormat kRegister({
    .name = "otf2",
    .description = "OTF2 archives (Score-P and other tools): an anchor file NAME.otf2, or the folder holding it",
    .reference = "OTF2 documentation (Score-P project), version 3.0: event and definition records",
    .recognises = recognises_otf2,
    .fallback = false,
    .open = open_otf2,
});

} // namespace

} // namespace mpisim::replay
