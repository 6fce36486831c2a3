// CSV: one row per call in FILE.csv, one row per message in FILE.messages.csv, streamed as the simulation reports
// them (calls in the order they end, messages in the order they arrive); with TimelineOptions::links, one row per
// change of a link's bandwidth use in FILE.links.csv, in date order. When ranks fail or the run was restarted, one
// row per failure and per attempt's start and end in FILE.events.csv (created only then, so that a run without
// failures writes the files it always did). The files start with '#' comment lines
// giving the provenance (pandas: read_csv(path, comment='#')). Dates and durations are seconds, written in the
// shortest form that reads back exactly.
#include "timeline/OutputFile.hpp"
#include "timeline/TimelineWriter.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <string_view>

namespace mpisim::timeline {

namespace {

// FILE.csv -> FILE.<what>.csv
std::string companion_path(const std::string& path, const std::string& what)
{
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::string suffix = ".csv";
  if (lower.size() > suffix.size() && lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0)
    return path.substr(0, path.size() - suffix.size()) + "." + what + ".csv";
  return path + "." + what + ".csv";
}

// A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(std::string_view text)
{
  if (text.find_first_of(",\"\r\n") == std::string_view::npos)
    return std::string(text);
  std::string out = "\"";
  for (char c : text)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

const char* protocol_name(models::Protocol protocol)
{
  switch (protocol) {
  case models::Protocol::Eager: return "eager";
  case models::Protocol::Detached: return "detached";
  case models::Protocol::Rendezvous: return "rendezvous";
  }
  return "unknown";
}

class CsvWriter final : public TimelineWriter {
public:
  explicit CsvWriter(const TimelineOptions& options)
      : calls_(options.path), messages_(companion_path(options.path, "messages")), provenance_(options.provenance),
        internals_(options.internals)
  {
    if (options.links) {
      links_ = std::make_unique<OutputFile>(companion_path(options.path, "links"));
      links_->text("# mpisim timeline: one row per change of a link's bandwidth use (bytes per second)\n");
      for (const auto& [key, value] : options.provenance)
        links_->text("# ").text(key).text(": ").text(value).put('\n');
      links_->text("link,time,used,capacity,flows\n");
    }
    calls_.text("# mpisim timeline: one row per MPI call, computation or sleep (seconds); messages in ")
        .text(std::filesystem::path(messages_.path()).filename().string())
        .put('\n');
    messages_.text(internals_ ? "# mpisim timeline: one row per message, including those inside collectives "
                                "(negative tags)\n"
                              : "# mpisim timeline: one row per point-to-point message\n");
    for (const auto& [key, value] : options.provenance) {
      calls_.text("# ").text(key).text(": ").text(value).put('\n');
      messages_.text("# ").text(key).text(": ").text(value).put('\n');
    }
    calls_.text("rank,operation,start,end,duration,peer,bytes,tag,communicator,flops\n");
    messages_.text("source,destination,tag,communicator,bytes,posted,started,arrived,protocol\n");
  }

  void call(const mpi::CallRecord& r) override
  {
    calls_.integer(r.rank).put(',').text(r.operation).put(',').number(r.start).put(',').number(r.end).put(',');
    calls_.number(r.end - r.start).put(',').integer(r.peer).put(',').number(r.bytes).put(',').integer(r.tag).put(',');
    calls_.integer(r.communicator).put(',').number(r.flops).put('\n');
  }

  void message(const mpi::MessageRecord& m) override
  {
    if (m.collective() && not internals_)
      return;
    messages_.integer(m.source).put(',').integer(m.destination).put(',').integer(m.tag).put(',');
    messages_.integer(m.communicator).put(',').number(m.bytes).put(',').number(m.posted).put(',');
    messages_.number(m.started).put(',').number(m.arrived).put(',').text(protocol_name(m.protocol)).put('\n');
  }

  void failure(const mpi::FailureRecord& f) override
  {
    events().text("failure,").number(f.date).put(',').integer(f.rank).text(",-1,\n");
  }

  void attempt(const mpi::AttemptRecord& a) override
  {
    events().text("attempt-start,").number(a.start).text(",-1,").integer(a.attempt).text(",\n");
    if (a.ended()) {
      events().text("attempt-end,").number(a.end).text(",-1,").integer(a.attempt).put(',');
      events().text(csv_field(a.outcome)).put('\n');
    }
  }

  void link_usage(const models::LinkUsage& u) override
  {
    links_->text(csv_field(u.name)).put(',').number(u.time).put(',').number(u.used).put(',').number(u.capacity);
    links_->put(',').integer(u.flows).put('\n');
  }

  void finish() override
  {
    calls_.close();
    messages_.close();
    if (links_)
      links_->close();
    if (events_)
      events_->close();
  }

private:
  // FILE.events.csv, opened at the first event.
  OutputFile& events()
  {
    if (not events_) {
      events_ = std::make_unique<OutputFile>(companion_path(calls_.path(), "events"));
      events_->text("# mpisim timeline: one row per process failure and per start and end of a restarted run's "
                    "attempt (seconds; -1: not applicable)\n");
      for (const auto& [key, value] : provenance_)
        events_->text("# ").text(key).text(": ").text(value).put('\n');
      events_->text("event,time,rank,attempt,outcome\n");
    }
    return *events_;
  }

  OutputFile calls_;
  OutputFile messages_;
  std::unique_ptr<OutputFile> links_;  // with TimelineOptions::links
  std::unique_ptr<OutputFile> events_; // at the first failure or attempt
  std::vector<std::pair<std::string, std::string>> provenance_;
  bool internals_;
};

const RegisterTimelineWriter kRegisterCsv({
    "csv",
    {".csv"},
    "CSV: a row per call (FILE.csv) and a row per message (FILE.messages.csv), for pandas, R, spreadsheets",
    "RFC 4180; columns in docs/timelines.md",
    [](const TimelineOptions& options) { return std::make_unique<CsvWriter>(options); },
});

} // namespace
} // namespace mpisim::timeline
