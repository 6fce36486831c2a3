// Paje: the trace format of Paje, ViTE and pajeng (pj_dump, pj_gantt), as SimGrid writes it.
//
// A header of %EventDef definitions, then the type hierarchy: a root container type, a rank container type inside
// it, a state type "MPI call" on ranks (one entity value per operation, with a colour) and a link type "message"
// between ranks. Each call is a PajePushState at its start and a PajePopState at its end on its rank's container;
// each message a PajeStartLink at the sending slice's start and a PajeEndLink at the receiving slice's end (see
// MessageBinder), keyed by the message's number, with its size.
//
// With TimelineOptions::links, a container type "link" inside the root, one container per link that carried traffic
// (named after the platform's link), and a variable "bandwidth used" (bytes per second) on it, set by a
// PajeSetVariable at each change the network model reports.
//
// A rank's failure is a PajeNewEvent of the event type "failure" on its container at its date, and its container is
// destroyed then (its line ends there), unless the failure was in an earlier attempt of a restarted run. A restarted
// run's attempts are PajeNewEvents of the type "attempt" on the root container, "attempt starts" and "attempt ends"
// (values start and end), at their dates.
//
// Viewers want events in chronological order, while calls are reported when they end: the writer keeps 16 bytes per
// event (and 16 per message) and writes the sorted file when the simulation is over. Events at equal dates keep the
// order they were reported in, so a rank's pop comes before its next push. Dates are whole nanoseconds, written as
// seconds with nine decimals.
#include "timeline/MessageBinder.hpp"
#include "timeline/OutputFile.hpp"
#include "timeline/TimelineWriter.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mpisim::timeline {

namespace {

// The colours mpisim gantt uses too (src/mpisim/gantt.py): computation neutral, point-to-point warm and cool,
// collectives in between.
constexpr struct {
  const char* operation;
  const char* rgb;
} kColours[] = {
    {"compute", "0.70 0.70 0.70"},    {"sleep", "0.88 0.88 0.88"},         {"send", "0.84 0.15 0.16"},
    {"isend", "1.00 0.50 0.05"},      {"recv", "0.12 0.47 0.71"},          {"irecv", "0.68 0.78 0.91"},
    {"sendRecv", "0.55 0.34 0.29"},   {"wait", "0.58 0.40 0.74"},          {"waitall", "0.77 0.69 0.84"},
    {"test", "0.89 0.47 0.76"},       {"barrier", "0.09 0.75 0.81"},       {"bcast", "0.17 0.63 0.17"},
    {"reduce", "0.60 0.87 0.54"},     {"allreduce", "0.74 0.74 0.13"},     {"alltoall", "1.00 0.73 0.47"},
    {"alltoallv", "0.86 0.86 0.55"},  {"gather", "0.62 0.85 0.90"},        {"gatherv", "0.40 0.76 0.65"},
    {"scatter", "0.99 0.55 0.38"},    {"scatterv", "0.90 0.54 0.76"},      {"allgather", "0.55 0.63 0.80"},
    {"allgatherv", "0.65 0.85 0.33"}, {"reducescatter", "1.00 0.85 0.18"}, {"scan", "0.90 0.77 0.58"},
    {"exscan", "0.70 0.70 0.40"},
};

const char* colour_of(std::string_view operation)
{
  for (const auto& entry : kColours)
    if (operation == entry.operation)
      return entry.rgb;
  return "0.50 0.50 0.50";
}

constexpr const char* kHeader = R"(%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineVariableType 1
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
%EventDef PajeDefineStateType 2
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineEventType 3
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineLinkType 4
% Alias string
% Type string
% StartContainerType string
% EndContainerType string
% Name string
%EndEventDef
%EventDef PajeDefineEntityValue 5
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
%EventDef PajeCreateContainer 6
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajeDestroyContainer 7
% Time date
% Type string
% Name string
%EndEventDef
%EventDef PajeSetVariable 8
% Time date
% Type string
% Container string
% Value double
%EndEventDef
%EventDef PajePushState 12
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajePopState 14
% Time date
% Container string
% Type string
%EndEventDef
%EventDef PajeStartLink 16
% Time date
% Container string
% Type string
% StartContainer string
% Value string
% Key string
% Size double
%EndEventDef
%EventDef PajeEndLink 19
% Time date
% Container string
% Type string
% EndContainer string
% Value string
% Key string
%EndEventDef
%EventDef PajeNewEvent 20
% Time date
% Container string
% Type string
% Value string
%EndEventDef
0 ROOT 0 "simulation"
0 RANK ROOT "rank"
2 CALL RANK "MPI call"
4 MSG ROOT RANK RANK "message"
5 p2p MSG "point-to-point" "0.20 0.20 0.20"
5 collective MSG "collective" "0.60 0.60 0.60"
3 FAIL RANK "failure"
5 failed FAIL "process failure" "1.00 0.00 0.00"
3 ATTEMPT ROOT "attempt"
5 start ATTEMPT "attempt starts" "0.00 0.60 0.00"
5 end ATTEMPT "attempt ends" "0.80 0.00 0.00"
)";

class PajeWriter final : public TimelineWriter {
public:
  explicit PajeWriter(const TimelineOptions& options)
      : out_(options.path), binder_(options.internals), provenance_(options.provenance)
  {
  }

  void call(const mpi::CallRecord& record) override
  {
    note_rank(record.rank);
    const uint32_t operation = operation_index(record.operation);
    events_.push_back(Event{to_nanoseconds(record.start), pack(Kind::Push, record.rank), operation});
    events_.push_back(Event{to_nanoseconds(record.end), pack(Kind::Pop, record.rank), 0});
    binder_.call(record, started_, ended_);
    keep_flows();
  }

  void message(const mpi::MessageRecord& record) override
  {
    binder_.message(record, started_, ended_);
    keep_flows();
  }

  void failure(const mpi::FailureRecord& record) override
  {
    note_rank(record.rank);
    events_.push_back(Event{to_nanoseconds(record.date), pack(Kind::Failure, record.rank), 0});
    if (static_cast<size_t>(record.rank) >= failed_at_.size())
      failed_at_.resize(static_cast<size_t>(record.rank) + 1, -1);
    failed_at_[static_cast<size_t>(record.rank)] = to_nanoseconds(record.date);
  }

  void attempt(const mpi::AttemptRecord& record) override
  {
    const auto attempt = static_cast<uint32_t>(record.attempt);
    events_.push_back(Event{to_nanoseconds(record.start), pack(Kind::AttemptStart, 0), attempt});
    if (record.ended())
      events_.push_back(Event{to_nanoseconds(record.end), pack(Kind::AttemptEnd, 0), attempt});
    else
      current_attempt_start_ = to_nanoseconds(record.start);
  }

  void link_usage(const models::LinkUsage& usage) override
  {
    if (usage.link >= link_names_.size())
      link_names_.resize(usage.link + 1);
    if (link_names_[usage.link].empty())
      link_names_[usage.link] = usage.name.empty() ? "link " + std::to_string(usage.link) : std::string(usage.name);
    events_.push_back(Event{to_nanoseconds(usage.time), pack(Kind::SetVariable, static_cast<int>(usage.link)),
                            static_cast<uint32_t>(variable_values_.size())});
    variable_values_.push_back(usage.used);
  }

  void finish() override
  {
    binder_.finish(started_, ended_);
    keep_flows();
    // A link needs both ends: drop those whose message never arrived or whose sending call never came.
    std::erase_if(events_, [this](const Event& e) {
      const Kind kind = kind_of(e);
      return (kind == Kind::StartLink || kind == Kind::EndLink) && links_[e.value].ends != 2;
    });
    std::stable_sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) { return a.time < b.time; });
    write();
  }

private:
  // Eight kinds fill the three bits.
  enum class Kind : uint32_t { Push, Pop, StartLink, EndLink, SetVariable, Failure, AttemptStart, AttemptEnd };
  struct Event {
    int64_t time;       // nanoseconds
    uint32_t kind_rank; // kind in the top three bits, the rank (SetVariable: the platform's link id) below
    uint32_t value; // Push: operation index; links: the flow id; SetVariable: index in variable_values_; attempts: the
                    // attempt number
  };
  struct Link {
    double bytes = 0;
    bool collective = false;
    uint8_t ends = 0;
  };
  static_assert(sizeof(Event) == 16);

  static uint32_t pack(Kind kind, int rank) { return static_cast<uint32_t>(kind) << 29 | static_cast<uint32_t>(rank); }
  static Kind kind_of(const Event& e) { return static_cast<Kind>(e.kind_rank >> 29); }
  static int rank_of(const Event& e) { return static_cast<int>(e.kind_rank & 0x1fffffffu); }

  void note_rank(int rank)
  {
    if (rank >= ranks_)
      ranks_ = rank + 1;
  }

  // Failed in the attempt running now: a failure in an earlier one does not end the line (the rank ran again).
  bool has_failed(int rank) const
  {
    return static_cast<size_t>(rank) < failed_at_.size() && failed_at_[rank] >= current_attempt_start_;
  }

  uint32_t operation_index(const char* operation)
  {
    // Operation names have static storage: look them up by address first.
    auto known = by_address_.find(operation);
    if (known != by_address_.end())
      return known->second;
    auto position = std::find(operations_.begin(), operations_.end(), std::string_view(operation));
    const auto index = static_cast<uint32_t>(position - operations_.begin());
    if (position == operations_.end())
      operations_.emplace_back(operation);
    by_address_.emplace(operation, index);
    return index;
  }

  Link& link(uint64_t id)
  {
    if (id >= links_.size())
      links_.resize(id + 1);
    return links_[id];
  }

  void keep_flows()
  {
    for (const Flow& flow : started_) {
      note_rank(flow.source);
      Link& l = link(flow.id);
      l.bytes = flow.bytes;
      l.collective = flow.collective;
      ++l.ends;
      events_.push_back(
          Event{to_nanoseconds(flow.start), pack(Kind::StartLink, flow.source), static_cast<uint32_t>(flow.id)});
    }
    for (const Flow& flow : ended_) {
      note_rank(flow.destination);
      ++link(flow.id).ends;
      events_.push_back(
          Event{to_nanoseconds(flow.end), pack(Kind::EndLink, flow.destination), static_cast<uint32_t>(flow.id)});
    }
    started_.clear();
    ended_.clear();
  }

  void write()
  {
    out_.text("# mpisim timeline in the Paje format: pj_dump FILE, or open it in ViTE\n");
    for (const auto& [key, value] : provenance_)
      out_.text("# ").text(key).text(": ").text(value).put('\n');
    out_.text(kHeader);
    for (const std::string& operation : operations_)
      out_.text("5 ")
          .text(operation)
          .text(" CALL \"")
          .text(operation)
          .text("\" \"")
          .text(colour_of(operation))
          .text("\"\n");
    out_.text("6 0.000000000 root ROOT 0 \"simulation\"\n");
    for (int rank = 0; rank < ranks_; ++rank)
      out_.text("6 0.000000000 r").integer(rank).text(" RANK root \"rank ").integer(rank).text("\"\n");
    if (not link_names_.empty()) {
      out_.text("0 LINK ROOT \"link\"\n1 BW LINK \"bandwidth used\" \"0.12 0.47 0.71\"\n");
      for (size_t link = 0; link < link_names_.size(); ++link)
        if (not link_names_[link].empty())
          out_.text("6 0.000000000 l")
              .integer(static_cast<int64_t>(link))
              .text(" LINK root ")
              .json_string(link_names_[link])
              .put('\n');
    }
    int64_t last = 0;
    for (const Event& e : events_) {
      last = std::max(last, e.time);
      switch (kind_of(e)) {
      case Kind::Push:
        out_.text("12 ").scaled(e.time, 9).text(" r").integer(rank_of(e)).text(" CALL ");
        out_.text(operations_[e.value]).put('\n');
        break;
      case Kind::Pop: out_.text("14 ").scaled(e.time, 9).text(" r").integer(rank_of(e)).text(" CALL\n"); break;
      case Kind::StartLink: {
        const Link& l = links_[e.value];
        out_.text("16 ").scaled(e.time, 9).text(" root MSG r").integer(rank_of(e)).put(' ');
        out_.text(l.collective ? "collective" : "p2p").text(" m").integer(e.value).put(' ').number(l.bytes);
        out_.put('\n');
        break;
      }
      case Kind::EndLink:
        out_.text("19 ").scaled(e.time, 9).text(" root MSG r").integer(rank_of(e)).put(' ');
        out_.text(links_[e.value].collective ? "collective" : "p2p").text(" m").integer(e.value).put('\n');
        break;
      case Kind::SetVariable:
        out_.text("8 ").scaled(e.time, 9).text(" BW l").integer(rank_of(e)).put(' ');
        out_.number(variable_values_[e.value]).put('\n');
        break;
      case Kind::Failure: // the rank's line ends here, unless it ran again in a later attempt
        out_.text("20 ").scaled(e.time, 9).text(" r").integer(rank_of(e)).text(" FAIL failed\n");
        if (e.time >= current_attempt_start_)
          out_.text("7 ").scaled(e.time, 9).text(" RANK r").integer(rank_of(e)).put('\n');
        break;
      case Kind::AttemptStart: out_.text("20 ").scaled(e.time, 9).text(" root ATTEMPT start\n"); break;
      case Kind::AttemptEnd: out_.text("20 ").scaled(e.time, 9).text(" root ATTEMPT end\n"); break;
      }
    }
    for (int rank = 0; rank < ranks_; ++rank)
      if (not has_failed(rank))
        out_.text("7 ").scaled(last, 9).text(" RANK r").integer(rank).put('\n');
    for (size_t link = 0; link < link_names_.size(); ++link)
      if (not link_names_[link].empty())
        out_.text("7 ").scaled(last, 9).text(" LINK l").integer(static_cast<int64_t>(link)).put('\n');
    out_.text("7 ").scaled(last, 9).text(" ROOT root\n");
    out_.close();
  }

  OutputFile out_;
  MessageBinder binder_;
  std::vector<std::pair<std::string, std::string>> provenance_;
  std::vector<Flow> started_, ended_;
  std::vector<Event> events_;
  std::vector<Link> links_;             // by flow id
  std::vector<std::string> link_names_; // by platform link id; empty: the link reported nothing
  std::vector<double> variable_values_; // SetVariable events' values
  std::vector<std::string> operations_;
  std::unordered_map<const char*, uint32_t> by_address_;
  std::vector<int64_t> failed_at_;    // by rank, nanoseconds; -1: not failed
  int64_t current_attempt_start_ = 0; // nanoseconds
  int ranks_ = 0;
};

const RegisterTimelineWriter kRegisterPaje({
    "paje",
    {".paje", ".trace"},
    "Paje: rank containers, a state per call, links for messages (ViTE, pajeng's pj_dump and pj_gantt)",
    "Schnorr, Stein, de Kergommeaux, Paje trace file format, version 1.2.5 (2013)",
    [](const TimelineOptions& options) { return std::make_unique<PajeWriter>(options); },
});

} // namespace
} // namespace mpisim::timeline
