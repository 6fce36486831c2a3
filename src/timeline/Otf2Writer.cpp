// OTF2 (`.otf2`): the run as an OTF2 archive, for Vampir, otf2-print and the OTF2 tools. `--timeline DIR/run.otf2`
// writes the anchor file DIR/run.otf2, the definitions DIR/run.def and the events in DIR/run/, replacing an archive of
// that name. One location per rank (a process of its own, on one system-tree node); every call is a region (`MPI_Send`,
// ..., and `compute`, `sleep` as user regions) entered at its start and left at its end, with OTF2's MPI records:
// send, recv -> MpiSend, MpiRecv; isend, irecv -> MpiIsend, MpiIrecvRequest and, at the wait that completes them (the
// oldest pending request of the wait's key, as the replay does), MpiIsendComplete, MpiIrecv; collectives ->
// MpiCollectiveBegin/End with the operation, root and the bytes sent and received as Score-P counts them. Every rank
// also enters and leaves MPI_Init at time 0 and MPI_Finalize at its end. Peers are world ranks on MPI_COMM_WORLD.
// What is dropped is in docs/otf2.md. Events are kept per rank and written at finish(), each rank's in time order
// (calls are reported when they end, OTF2 wants each location's events in order); timestamps are picoseconds.
#include "common/Errors.hpp"
#include "timeline/TimelineWriter.hpp"

#include <otf2/otf2.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <string_view>

namespace mpisim::timeline {

namespace {

namespace fs = std::filesystem;

constexpr double kTicksPerSecond = 1e12;
// The sizes of the OTF2 library's buffer chunks for events and for definitions.
constexpr uint64_t kEventChunkBytes = uint64_t{1} << 20;
constexpr uint64_t kDefinitionChunkBytes = uint64_t{4} << 20;

OTF2_TimeStamp ticks(double seconds)
{
  return static_cast<OTF2_TimeStamp>(std::llround(std::max(0.0, seconds) * kTicksPerSecond));
}

OTF2_FlushType flush_without_record(void*, OTF2_FileType, OTF2_LocationRef, void*, bool)
{
  return OTF2_FLUSH;
}
OTF2_FlushCallbacks kFlushCallbacks = {flush_without_record, nullptr};

// The call names of the replay and of online runs, as MPI region names and the OTF2 collective they are.
struct CallKind {
  std::string_view region;
  enum { Plain, Send, Recv, Isend, Irecv, Wait, WaitAll, SendRecv, Collective, User } role;
  OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
};

CallKind kind_of(std::string_view op)
{
  static const std::map<std::string_view, CallKind, std::less<>> kinds = {
      {"compute", {"compute", CallKind::User}},
      {"sleep", {"sleep", CallKind::User}},
      {"send", {"MPI_Send", CallKind::Send}},
      {"recv", {"MPI_Recv", CallKind::Recv}},
      {"isend", {"MPI_Isend", CallKind::Isend}},
      {"irecv", {"MPI_Irecv", CallKind::Irecv}},
      {"wait", {"MPI_Wait", CallKind::Wait}},
      {"waitall", {"MPI_Waitall", CallKind::WaitAll}},
      {"test", {"MPI_Test", CallKind::Plain}},
      {"sendRecv", {"MPI_Sendrecv", CallKind::SendRecv}},
      {"barrier", {"MPI_Barrier", CallKind::Collective, OTF2_COLLECTIVE_OP_BARRIER}},
      {"bcast", {"MPI_Bcast", CallKind::Collective, OTF2_COLLECTIVE_OP_BCAST}},
      {"reduce", {"MPI_Reduce", CallKind::Collective, OTF2_COLLECTIVE_OP_REDUCE}},
      {"allreduce", {"MPI_Allreduce", CallKind::Collective, OTF2_COLLECTIVE_OP_ALLREDUCE}},
      {"alltoall", {"MPI_Alltoall", CallKind::Collective, OTF2_COLLECTIVE_OP_ALLTOALL}},
      {"alltoallv", {"MPI_Alltoallv", CallKind::Collective, OTF2_COLLECTIVE_OP_ALLTOALLV}},
      {"gather", {"MPI_Gather", CallKind::Collective, OTF2_COLLECTIVE_OP_GATHER}},
      {"gatherv", {"MPI_Gatherv", CallKind::Collective, OTF2_COLLECTIVE_OP_GATHERV}},
      {"scatter", {"MPI_Scatter", CallKind::Collective, OTF2_COLLECTIVE_OP_SCATTER}},
      {"scatterv", {"MPI_Scatterv", CallKind::Collective, OTF2_COLLECTIVE_OP_SCATTERV}},
      {"allgather", {"MPI_Allgather", CallKind::Collective, OTF2_COLLECTIVE_OP_ALLGATHER}},
      {"allgatherv", {"MPI_Allgatherv", CallKind::Collective, OTF2_COLLECTIVE_OP_ALLGATHERV}},
      {"reducescatter", {"MPI_Reduce_scatter", CallKind::Collective, OTF2_COLLECTIVE_OP_REDUCE_SCATTER}},
      {"scan", {"MPI_Scan", CallKind::Collective, OTF2_COLLECTIVE_OP_SCAN}},
      {"exscan", {"MPI_Exscan", CallKind::Collective, OTF2_COLLECTIVE_OP_EXSCAN}},
  };
  const auto found = kinds.find(op);
  if (found != kinds.end())
    return found->second;
  return {op, CallKind::Plain}; // another call (online runs' MPI_Comm_rank, ...): its region only
}

// Bytes sent and received by one rank in a collective, as Score-P counts them (N ranks, b = this rank's buffer as
// CallRecord gives it).
std::pair<uint64_t, uint64_t> collective_bytes(OTF2_CollectiveOp op, double b, bool root, int n)
{
  const auto bytes = [](double v) { return static_cast<uint64_t>(std::max(0.0, v)); };
  const double all = b * n;
  switch (op) {
  case OTF2_COLLECTIVE_OP_BARRIER: return {0, 0};
  case OTF2_COLLECTIVE_OP_BCAST: return {root ? bytes(all) : 0, bytes(b)};
  case OTF2_COLLECTIVE_OP_REDUCE:
  case OTF2_COLLECTIVE_OP_GATHER:
  case OTF2_COLLECTIVE_OP_GATHERV: return {bytes(b), root ? bytes(all) : 0};
  case OTF2_COLLECTIVE_OP_SCATTER: return {root ? bytes(all) : 0, bytes(b)};
  case OTF2_COLLECTIVE_OP_SCATTERV: return {root ? bytes(b) : 0, bytes(b / n)};
  default: return {bytes(all), bytes(all)}; // allreduce, allgather, alltoall (b per peer), scan, exscan
  }
}

struct Event {
  enum Type { Enter, Leave, Send, Recv, Isend, IsendComplete, IrecvRequest, Irecv, CollBegin, CollEnd } type;
  OTF2_TimeStamp time;
  uint64_t order;      // report order: ties keep it
  uint32_t region = 0; // Enter, Leave
  uint32_t peer = 0;   // p2p; collectives: root
  uint32_t tag = 0;
  uint64_t bytes = 0;    // p2p; collectives: sent
  uint64_t received = 0; // collectives
  uint64_t request = 0;
  OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
};

struct PendingRequest {
  uint64_t id;
  bool receive;
  int peer, tag;
  uint64_t bytes;
};

class Otf2Writer final : public TimelineWriter {
public:
  explicit Otf2Writer(const TimelineOptions& options) : path_(options.path), provenance_(options.provenance)
  {
    const fs::path anchor(path_);
    directory_ = anchor.parent_path().empty() ? "." : anchor.parent_path().string();
    name_ = anchor.stem().string();
    std::error_code error;
    if (not fs::is_directory(directory_, error))
      throw InputError(path_ + ": cannot write the OTF2 timeline: no folder " + directory_);
  }

  void call(const mpi::CallRecord& r) override
  {
    const CallKind kind = kind_of(r.operation);
    std::vector<Event>& events = rank_events(r.rank);
    const OTF2_TimeStamp start = ticks(r.start), end = ticks(r.end);
    const uint32_t region = region_id(kind.region, kind.role == CallKind::User);
    const uint32_t peer = static_cast<uint32_t>(std::max(0, r.peer));
    const uint32_t tag = static_cast<uint32_t>(std::max(0, r.tag));
    const auto bytes = static_cast<uint64_t>(std::max(0.0, r.bytes));
    add(events, {Event::Enter, start, 0, region});
    switch (kind.role) {
    case CallKind::Send: add(events, {Event::Send, start, 0, 0, peer, tag, bytes}); break;
    case CallKind::Recv: add(events, {Event::Recv, end, 0, 0, peer, tag, bytes}); break;
    case CallKind::SendRecv:
      add(events, {Event::Send, start, 0, 0, peer, tag, bytes});
      add(events, {Event::Recv, end, 0, 0, peer, tag, bytes}); // the record gives the send's size only
      break;
    case CallKind::Isend:
    case CallKind::Irecv: {
      const bool receive = kind.role == CallKind::Irecv;
      const uint64_t id = ++requests_;
      pending(r.rank).push_back({id, receive, r.peer, r.tag, bytes});
      add(events, receive ? Event{Event::IrecvRequest, start, 0, 0, 0, 0, 0, 0, id}
                          : Event{Event::Isend, start, 0, 0, peer, tag, bytes, 0, id});
      break;
    }
    case CallKind::Wait: complete(events, r.rank, end, r.peer, r.tag, false); break;
    case CallKind::WaitAll: complete(events, r.rank, end, 0, 0, true); break;
    case CallKind::Collective: {
      const auto [sent, received] = collective_bytes(kind.op, r.bytes, r.peer == r.rank, world_size());
      add(events, {Event::CollBegin, start});
      const uint32_t root = r.peer >= 0 ? peer : OTF2_UNDEFINED_UINT32;
      add(events, {Event::CollEnd, end, 0, 0, root, 0, sent, received, 0, kind.op});
      break;
    }
    default: break;
    }
    add(events, {Event::Leave, end, 0, region});
  }

  void message(const mpi::MessageRecord&) override {}   // the calls carry the messages' records
  void link_usage(const models::LinkUsage&) override {} // --timeline-links: not in OTF2 (docs/otf2.md)

  void finish() override
  {
    if (finished_)
      return;
    finished_ = true;
    std::error_code error;
    if (fs::exists(fs::path(directory_) / (name_ + ".otf2"), error)) // an archive written before: replaced
      fs::remove_all(fs::path(directory_) / name_, error);
    OTF2_Archive* archive = OTF2_Archive_Open(directory_.c_str(), name_.c_str(), OTF2_FILEMODE_WRITE, kEventChunkBytes,
                                              kDefinitionChunkBytes, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (archive == nullptr)
      throw InputError(path_ + ": cannot write the OTF2 timeline");
    OTF2_Archive_SetFlushCallbacks(archive, &kFlushCallbacks, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive);
    OTF2_Archive_SetCreator(archive, "mpisim");
    OTF2_Archive_SetDescription(archive, description().c_str());
    const bool events_written = write_events(archive);
    write_definitions(archive);
    const OTF2_ErrorCode closed = OTF2_Archive_Close(archive);
    if (not events_written || closed != OTF2_SUCCESS)
      throw InputError(path_ + ": cannot write the OTF2 timeline (" + OTF2_Error_GetDescription(closed) + ")");
  }

private:
  std::vector<Event>& rank_events(int rank)
  {
    if (static_cast<size_t>(rank) >= events_.size()) {
      events_.resize(static_cast<size_t>(rank) + 1);
      pending_.resize(static_cast<size_t>(rank) + 1);
    }
    return events_[static_cast<size_t>(rank)];
  }
  std::deque<PendingRequest>& pending(int rank) { return pending_[static_cast<size_t>(rank)]; }
  int world_size() const { return static_cast<int>(std::max<size_t>(events_.size(), 1)); }

  void add(std::vector<Event>& events, Event event)
  {
    event.order = ++order_;
    events.push_back(event);
  }

  // The wait completes the oldest pending request of its peer and tag (waitall: every pending one).
  void complete(std::vector<Event>& events, int rank, OTF2_TimeStamp time, int peer, int tag, bool all)
  {
    std::deque<PendingRequest>& open = pending(rank);
    for (auto it = open.begin(); it != open.end();) {
      if (not all && (it->peer != peer || it->tag != tag)) {
        ++it;
        continue;
      }
      add(events, it->receive ? Event{Event::Irecv, time, 0, 0, static_cast<uint32_t>(it->peer),
                                      static_cast<uint32_t>(it->tag), it->bytes, 0, it->id}
                              : Event{Event::IsendComplete, time, 0, 0, 0, 0, 0, 0, it->id});
      it = open.erase(it);
      if (not all)
        return;
    }
  }

  uint32_t region_id(std::string_view name, bool user)
  {
    const auto found = regions_.find(name);
    if (found != regions_.end())
      return found->second.first;
    const auto id = static_cast<uint32_t>(regions_.size());
    regions_.emplace(std::string(name), std::make_pair(id, user));
    return id;
  }

  std::string description() const
  {
    std::string text = "mpisim simulated run";
    for (const auto& [key, value] : provenance_)
      text += "; " + key + ": " + value;
    return text;
  }

  bool write_events(OTF2_Archive* archive)
  {
    const uint32_t init = region_id("MPI_Init", false);
    const uint32_t finalize = region_id("MPI_Finalize", false);
    if (OTF2_Archive_OpenEvtFiles(archive) != OTF2_SUCCESS)
      return false;
    for (size_t rank = 0; rank < events_.size(); ++rank) {
      std::vector<Event>& events = events_[rank];
      std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        return a.time != b.time ? a.time < b.time : a.order < b.order;
      });
      OTF2_EvtWriter* writer = OTF2_Archive_GetEvtWriter(archive, rank);
      if (writer == nullptr)
        return false;
      OTF2_EvtWriter_Enter(writer, nullptr, 0, init);
      OTF2_EvtWriter_Leave(writer, nullptr, 0, init);
      for (const Event& e : events)
        write_event(writer, e);
      // MPI_Finalize where the rank ends, so that readers see its last computation end in an MPI call.
      const OTF2_TimeStamp end = events.empty() ? 0 : events.back().time;
      OTF2_EvtWriter_Enter(writer, nullptr, end, finalize);
      OTF2_EvtWriter_Leave(writer, nullptr, end, finalize);
      OTF2_Archive_CloseEvtWriter(archive, writer);
    }
    OTF2_Archive_CloseEvtFiles(archive);
    // Empty local definitions, one per location, as readers expect them.
    OTF2_Archive_OpenDefFiles(archive);
    for (size_t rank = 0; rank < events_.size(); ++rank)
      if (OTF2_DefWriter* local = OTF2_Archive_GetDefWriter(archive, rank))
        OTF2_Archive_CloseDefWriter(archive, local);
    OTF2_Archive_CloseDefFiles(archive);
    return true;
  }

  static void write_event(OTF2_EvtWriter* w, const Event& e)
  {
    constexpr OTF2_CommRef world = 0;
    switch (e.type) {
    case Event::Enter: OTF2_EvtWriter_Enter(w, nullptr, e.time, e.region); break;
    case Event::Leave: OTF2_EvtWriter_Leave(w, nullptr, e.time, e.region); break;
    case Event::Send: OTF2_EvtWriter_MpiSend(w, nullptr, e.time, e.peer, world, e.tag, e.bytes); break;
    case Event::Recv: OTF2_EvtWriter_MpiRecv(w, nullptr, e.time, e.peer, world, e.tag, e.bytes); break;
    case Event::Isend: OTF2_EvtWriter_MpiIsend(w, nullptr, e.time, e.peer, world, e.tag, e.bytes, e.request); break;
    case Event::IsendComplete: OTF2_EvtWriter_MpiIsendComplete(w, nullptr, e.time, e.request); break;
    case Event::IrecvRequest: OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, e.time, e.request); break;
    case Event::Irecv: OTF2_EvtWriter_MpiIrecv(w, nullptr, e.time, e.peer, world, e.tag, e.bytes, e.request); break;
    case Event::CollBegin: OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, e.time); break;
    case Event::CollEnd:
      OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, e.time, e.op, world, e.peer, e.bytes, e.received);
      break;
    }
  }

  void write_definitions(OTF2_Archive* archive)
  {
    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
    uint32_t strings = 0;
    const auto string = [&](const std::string& text) {
      OTF2_GlobalDefWriter_WriteString(g, strings, text.c_str());
      return strings++;
    };
    OTF2_TimeStamp last = 0;
    for (const auto& events : events_)
      for (const Event& e : events)
        last = std::max(last, e.time);
    OTF2_GlobalDefWriter_WriteClockProperties(g, static_cast<uint64_t>(kTicksPerSecond), 0, last + 1,
                                              OTF2_UNDEFINED_TIMESTAMP);
    const uint32_t empty = string("");
    std::vector<std::pair<uint32_t, std::pair<std::string, bool>>> by_id;
    for (const auto& [name, region] : regions_)
      by_id.push_back({region.first, {name, region.second}});
    std::sort(by_id.begin(), by_id.end());
    for (const auto& [id, region] : by_id) {
      const uint32_t name = string(region.first);
      OTF2_GlobalDefWriter_WriteRegion(
          g, id, name, name, empty, region.second ? OTF2_REGION_ROLE_FUNCTION : OTF2_REGION_ROLE_FUNCTION,
          region.second ? OTF2_PARADIGM_USER : OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty, 0, 0);
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, string("simulated platform"), string("machine"),
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    std::vector<uint64_t> locations, ranks;
    for (size_t rank = 0; rank < events_.size(); ++rank) {
      const std::string name = "rank " + std::to_string(rank);
      OTF2_GlobalDefWriter_WriteLocationGroup(g, rank, string(name), OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                              OTF2_UNDEFINED_LOCATION_GROUP);
      OTF2_GlobalDefWriter_WriteLocation(g, rank, string(name), OTF2_LOCATION_TYPE_CPU_THREAD, events_[rank].size() + 4,
                                         rank);
      locations.push_back(rank);
      ranks.push_back(rank);
    }
    const uint32_t n = static_cast<uint32_t>(locations.size());
    OTF2_GlobalDefWriter_WriteGroup(g, 0, string("MPI ranks"), OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, n, locations.data());
    OTF2_GlobalDefWriter_WriteGroup(g, 1, string("MPI_COMM_WORLD group"), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, n, ranks.data());
    OTF2_GlobalDefWriter_WriteComm(g, 0, string("MPI_COMM_WORLD"), 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  }

  std::string path_, directory_, name_;
  std::vector<std::pair<std::string, std::string>> provenance_;
  std::vector<std::vector<Event>> events_;
  std::vector<std::deque<PendingRequest>> pending_;
  std::map<std::string, std::pair<uint32_t, bool>, std::less<>> regions_;
  uint64_t order_ = 0;
  uint64_t requests_ = 0;
  bool finished_ = false;
};

const RegisterTimelineWriter kRegister({"otf2",
                                        {".otf2"},
                                        "OTF2 archive: Vampir, otf2-print and the OTF2 tools",
                                        "OTF2 documentation (Score-P project), version 3.0",
                                        [](const TimelineOptions& options) -> std::unique_ptr<TimelineWriter> {
                                          return std::make_unique<Otf2Writer>(options);
                                        }});

} // namespace

} // namespace mpisim::timeline
