// Chrome trace-event JSON: opens in Perfetto (ui.perfetto.dev) and chrome://tracing.
//
// One process (pid 0), one thread per rank (tid = rank, named "rank N"). Each call is a complete event ("ph":"X")
// named after the operation, with args operation, peer, bytes, tag, communicator (and flops for computations). Each
// message is a flow: an "s" event on the sender's track right after the sending slice, and an "f" event with
// "bp":"e" on the receiver's track right after the receiving slice, at that slice's end (see MessageBinder for which
// slices). Perfetto sorts events by time and keeps the file order between equal times, and binds a flow event to the
// last slice begun on its track: writing each flow event just after its slice, at a date inside it, binds it there.
//
// With TimelineOptions::links, each change of a link's bandwidth use is a counter event ("ph":"C") named "link NAME"
// in a second process (pid 1, "links"), with args used (bytes per second) and flows: Perfetto draws one counter track
// per link and argument.
//
// NIC models (bxi) add a third process (pid 2, "NICs"), one thread per node ("NIC N"): a complete event per PCIe
// transfer and message on the wire, named after its type (PTL_PUT, PCI_DMA_PAYLOAD, ...; category "nic"), with args
// operation (the type), peer (the other node), bytes, process, peer_process and id; a retransmission is an instant.
//
// A rank's failure is an instant event ("ph":"i", "s":"t") named "failure" (category "failure") on its track at its
// date; its track has no slice after it. A restarted run's attempts are global instant events (category "attempt"):
// "attempt K ends" at the abort date (args: attempt, outcome) and "attempt K starts" at its start (args: attempt).
//
// The file holds one event per line, each after the first starting with a comma, so a reader can stream it line by
// line (mpisim.timeline does). Dates are whole nanoseconds written as microseconds with three decimals.
#include "timeline/MessageBinder.hpp"
#include "timeline/OutputFile.hpp"
#include "timeline/TimelineWriter.hpp"

#include <cstring>
#include <set>

namespace mpisim::timeline {

namespace {

class ChromeTraceWriter final : public TimelineWriter {
public:
  explicit ChromeTraceWriter(const TimelineOptions& options)
      : out_(options.path), binder_(options.internals), provenance_(options.provenance)
  {
    out_.text("{\"traceEvents\":[\n");
    out_.text("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"mpisim\"}}\n");
  }

  void call(const mpi::CallRecord& record) override
  {
    note_rank(record.rank);
    const int64_t start = to_nanoseconds(record.start);
    const int64_t end = to_nanoseconds(record.end);
    const bool local = std::strcmp(record.operation, "compute") == 0 || std::strcmp(record.operation, "sleep") == 0;
    out_.text(",{\"name\":\"").text(record.operation).text("\",\"cat\":\"").text(local ? record.operation : "mpi");
    out_.text("\",\"ph\":\"X\",\"pid\":0,\"tid\":").integer(record.rank);
    out_.text(",\"ts\":").scaled(start, 3).text(",\"dur\":").scaled(end - start, 3);
    out_.text(",\"args\":{\"operation\":\"").text(record.operation).text("\",\"peer\":").integer(record.peer);
    out_.text(",\"bytes\":").number(record.bytes).text(",\"tag\":").integer(record.tag);
    out_.text(",\"communicator\":").integer(record.communicator);
    if (record.flops != 0)
      out_.text(",\"flops\":").number(record.flops);
    out_.text("}}\n");

    binder_.call(record, started_, ended_);
    write_flows();
  }

  void message(const mpi::MessageRecord& record) override
  {
    binder_.message(record, started_, ended_);
    write_flows();
  }

  void failure(const mpi::FailureRecord& record) override
  {
    note_rank(record.rank);
    out_.text(",{\"name\":\"failure\",\"cat\":\"failure\",\"ph\":\"i\",\"s\":\"t\",\"pid\":0,\"tid\":");
    out_.integer(record.rank).text(",\"ts\":").scaled(to_nanoseconds(record.date), 3);
    out_.text(",\"args\":{\"rank\":").integer(record.rank).text("}}\n");
  }

  void attempt(const mpi::AttemptRecord& record) override
  {
    attempt_marker(record.attempt, "starts", record.start, nullptr);
    if (record.ended())
      attempt_marker(record.attempt, "ends", record.end, record.outcome);
  }

  void link_usage(const models::LinkUsage& usage) override
  {
    if (not links_seen_) {
      out_.text(",{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"links\"}}\n");
      out_.text(",{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":1,\"args\":{\"sort_index\":1}}\n");
      links_seen_ = true;
    }
    out_.text(",{\"name\":").json_string(std::string("link ").append(usage.name));
    out_.text(",\"ph\":\"C\",\"pid\":1,\"ts\":").scaled(to_nanoseconds(usage.time), 3);
    out_.text(",\"args\":{\"used\":").number(usage.used).text(",\"flows\":").integer(usage.flows).text("}}\n");
  }

  void nic(const models::NicRecord& record) override
  {
    if (nics_.empty()) {
      out_.text(",{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,\"args\":{\"name\":\"NICs\"}}\n");
      out_.text(",{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":2,\"args\":{\"sort_index\":2}}\n");
    }
    nics_.insert(record.node);
    const char* name = models::nic_event_name(record.event);
    const int64_t start = to_nanoseconds(record.start);
    out_.text(",{\"name\":\"").text(name).text("\",\"cat\":\"nic\",\"ph\":");
    if (record.event == models::NicEvent::Retransmission)
      out_.text("\"i\",\"s\":\"t\",\"pid\":2,\"tid\":").integer(record.node);
    else
      out_.text("\"X\",\"pid\":2,\"tid\":").integer(record.node);
    out_.text(",\"ts\":").scaled(start, 3);
    if (record.event != models::NicEvent::Retransmission)
      out_.text(",\"dur\":").scaled(to_nanoseconds(record.end) - start, 3);
    out_.text(",\"args\":{\"operation\":\"").text(name).text("\",\"peer\":").integer(record.peer);
    out_.text(",\"bytes\":").number(record.bytes).text(",\"tag\":-1,\"communicator\":-1");
    out_.text(",\"process\":").integer(record.process).text(",\"peer_process\":").integer(record.peer_process);
    out_.text(",\"id\":").integer(static_cast<int64_t>(record.operation)).text("}}\n");
  }

  void finish() override
  {
    binder_.finish(started_, ended_);
    write_flows();
    for (const platform::HostId node : nics_) {
      out_.text(",{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":2,\"tid\":").integer(node);
      out_.text(",\"args\":{\"name\":\"NIC ").integer(node).text("\"}}\n");
    }
    for (int rank = 0; rank < ranks_; ++rank) {
      out_.text(",{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":").integer(rank);
      out_.text(",\"args\":{\"name\":\"rank ").integer(rank).text("\"}}\n");
      out_.text(",{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,\"tid\":").integer(rank);
      out_.text(",\"args\":{\"sort_index\":").integer(rank).text("}}\n");
    }
    out_.text("],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{");
    bool first = true;
    for (const auto& [key, value] : provenance_) {
      out_.text(first ? "" : ",").json_string(key).put(':').json_string(value);
      first = false;
    }
    out_.text("}}\n");
    out_.close();
  }

private:
  // A global instant event: a vertical line across every track in Perfetto.
  void attempt_marker(int attempt, const char* what, double date, const char* outcome)
  {
    out_.text(",{\"name\":\"attempt ").integer(attempt).put(' ').text(what);
    out_.text("\",\"cat\":\"attempt\",\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"ts\":");
    out_.scaled(to_nanoseconds(date), 3).text(",\"args\":{\"attempt\":").integer(attempt);
    if (outcome != nullptr)
      out_.text(",\"outcome\":").json_string(outcome);
    out_.text("}}\n");
  }

  void note_rank(int rank)
  {
    if (rank >= ranks_)
      ranks_ = rank + 1;
  }

  void write_flows()
  {
    for (const Flow& flow : started_) {
      note_rank(flow.source);
      out_.text(",{\"name\":\"message\",\"cat\":\"").text(flow.collective ? "collective" : "p2p");
      out_.text("\",\"ph\":\"s\",\"id\":").integer(static_cast<int64_t>(flow.id));
      out_.text(",\"pid\":0,\"tid\":").integer(flow.source).text(",\"ts\":").scaled(to_nanoseconds(flow.start), 3);
      out_.text(",\"args\":{\"destination\":").integer(flow.destination).text(",\"bytes\":").number(flow.bytes);
      out_.text(",\"tag\":").integer(flow.tag).text("}}\n");
    }
    for (const Flow& flow : ended_) {
      note_rank(flow.destination);
      out_.text(",{\"name\":\"message\",\"cat\":\"").text(flow.collective ? "collective" : "p2p");
      out_.text("\",\"ph\":\"f\",\"bp\":\"e\",\"id\":").integer(static_cast<int64_t>(flow.id));
      out_.text(",\"pid\":0,\"tid\":").integer(flow.destination).text(",\"ts\":").scaled(to_nanoseconds(flow.end), 3);
      out_.text("}\n");
    }
    started_.clear();
    ended_.clear();
  }

  OutputFile out_;
  MessageBinder binder_;
  std::vector<std::pair<std::string, std::string>> provenance_;
  std::vector<Flow> started_, ended_;
  int ranks_ = 0;
  bool links_seen_ = false;
  std::set<platform::HostId> nics_; // nodes whose NIC has a track
};

const RegisterTimelineWriter kRegisterChrome({
    "chrome",
    {".json"},
    "Chrome trace-event JSON: one track per rank, a slice per call, messages as flow arrows (Perfetto, "
    "chrome://tracing)",
    "Trace Event Format, Google (docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU)",
    [](const TimelineOptions& options) { return std::make_unique<ChromeTraceWriter>(options); },
});

} // namespace
} // namespace mpisim::timeline
