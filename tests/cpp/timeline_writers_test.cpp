// Timeline writers: the registry, how messages are tied to their sending and receiving calls, and each format on
// examples/replay-basic (event counts match the replay: one slice or state per call, one arrow or link per message).
//
// examples/replay-basic has three point-to-point messages (0->1 tag 0, 1 MB; 3->0 tag 7, 1 MB; 1->2 tag 3, 500 kB)
// and 27 messages inside collectives (see replay_observer_test.cpp).
#include "common/Errors.hpp"
#include "replay/Replayer.hpp"
#include "timeline/MessageBinder.hpp"
#include "timeline/TimelineWriter.hpp"

#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace mpisim;
using mpisim::testing_support::Scratch;

namespace {

constexpr size_t kPointToPoint = 3;
constexpr size_t kInsideCollectives = 27;

struct Recorder : mpi::Observer {
  void call(const mpi::CallRecord& record) override { calls.push_back(record); }
  void message(const mpi::MessageRecord& record) override { messages.push_back(record); }
  std::vector<mpi::CallRecord> calls;
  std::vector<mpi::MessageRecord> messages;
};

// Replays examples/replay-basic into `path` with the writer `format` ("" = by extension).
Recorder replay_basic(const std::string& path, const std::string& format = "", bool internals = false)
{
  const std::string folder = std::string(MPISIM_SOURCE_DIR) + "/examples/replay-basic/";
  timeline::TimelineOptions options;
  options.path = path;
  options.internals = internals;
  options.provenance = {{"trace", folder + "index.txt"}, {"model", "smpi"}};
  auto writer = timeline::open_timeline(options, format);
  Recorder recorder;
  replay::ReplayOptions replay_options;
  replay_options.trace = folder + "index.txt";
  replay_options.simulation.platform = folder + "cluster4.xml";
  replay_options.observers = {writer.get(), &recorder};
  replay::replay(replay_options);
  writer->finish();
  return recorder;
}

std::vector<std::string> lines_of(const std::string& path)
{
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

std::string read(const std::string& path)
{
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

// The value of "key": in a one-line JSON object (numbers and plain strings only).
std::string field(const std::string& line, const std::string& key)
{
  const std::string quoted = "\"" + key + "\":";
  size_t at = line.find(quoted);
  if (at == std::string::npos)
    return "";
  at += quoted.size();
  size_t end = line[at] == '"' ? line.find('"', at + 1) + 1 : line.find_first_of(",}", at);
  return line.substr(at, end - at);
}

// Brackets and braces balance outside strings, and the document is one object.
bool balanced_json(const std::string& text)
{
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth < 0)
        return false;
      if (depth == 0 && text.find_first_not_of(" \n", i + 1) != std::string::npos)
        return false;
    }
  }
  return depth == 0 && not in_string;
}

size_t count_prefix(const std::vector<std::string>& lines, const std::string& prefix)
{
  return std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(prefix, 0) == 0; });
}

// ---------------------------------------------------------------------------------------------------- registry

TEST(timeline_registry, FormatsByNameAndExtension)
{
  std::vector<std::string> names;
  for (const auto& entry : timeline::TimelineWriterRegistry::all())
    names.push_back(entry.name);
  EXPECT_EQ(names, (std::vector<std::string>{"chrome", "csv", "otf2", "paje"}));
  EXPECT_EQ(timeline::TimelineWriterRegistry::for_path("out/run.json").name, "chrome");
  EXPECT_EQ(timeline::TimelineWriterRegistry::for_path("out/run.otf2").name, "otf2");
  EXPECT_EQ(timeline::TimelineWriterRegistry::for_path("RUN.PAJE").name, "paje");
  EXPECT_EQ(timeline::TimelineWriterRegistry::for_path("run.trace").name, "paje");
  EXPECT_EQ(timeline::TimelineWriterRegistry::for_path("run.csv").name, "csv");
}

TEST(timeline_registry, UnknownNamesAndExtensionsSayWhatIsValid)
{
  try {
    timeline::TimelineWriterRegistry::find("vampir");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "unknown timeline format 'vampir' (valid formats: chrome, csv, otf2, paje)");
  }
  try {
    timeline::TimelineWriterRegistry::for_path("run.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "run.txt: cannot tell the timeline format from the file name: use one of .json "
                                   "(chrome), .csv (csv), .otf2 (otf2), .paje (paje), .trace (paje)"))
        << e.what();
  }
  timeline::TimelineOptions options;
  options.path = "/nonexistent-folder/run.json";
  try {
    timeline::open_timeline(options);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent-folder/run.json: cannot write the timeline: No such file or directory");
  }
}

// ------------------------------------------------------------------------------------------------ message binder

mpi::CallRecord call(int rank, const char* operation, double start, double end, int peer = -1, int tag = 0)
{
  mpi::CallRecord record{rank, operation, start, end};
  record.peer = peer;
  record.tag = tag;
  return record;
}

mpi::MessageRecord message(int source, int destination, int tag, double posted, double arrived)
{
  return mpi::MessageRecord{source, destination, tag, 0, 100, posted, posted, arrived, models::Protocol::Eager};
}

struct Bound {
  timeline::MessageBinder binder{false};
  std::vector<timeline::Flow> started, ended;
  void on(const mpi::CallRecord& c) { binder.call(c, started, ended); }
  void on(const mpi::MessageRecord& m) { binder.message(m, started, ended); }
};

// A blocking rendezvous send returns when the data has arrived: the message is reported before the send, and the
// receive may be reported before the send too. The arrow still runs from the send's start to the receive's end.
TEST(timeline_binder, MessageBeforeItsSendingCall)
{
  Bound b;
  b.on(message(1, 0, 0, 0.5, 2.0));
  EXPECT_TRUE(b.started.empty());
  b.on(call(0, "recv", 1.0, 2.1, 1, 0));
  ASSERT_EQ(b.ended.size(), 1u);
  EXPECT_EQ(b.ended[0].end, 2.1);
  b.on(call(1, "send", 0.0, 2.0, 0, 0));
  ASSERT_EQ(b.started.size(), 1u);
  EXPECT_EQ(b.started[0].start, 0.0);
  EXPECT_EQ(b.started[0].id, b.ended[0].id);
}

// An isend returns before its message arrives: its flow starts right after it (a viewer binds the flow to the
// isend even when it lasts no time and the next slice starts at the same date), and keeps its id on arrival.
TEST(timeline_binder, SendingCallBeforeItsMessage)
{
  Bound b;
  b.on(call(1, "isend", 1.0, 1.0, 0, 5));
  ASSERT_EQ(b.started.size(), 1u);
  EXPECT_EQ(b.started[0].start, 1.0);
  b.on(message(1, 0, 5, 1.0, 3.0));
  EXPECT_EQ(b.started.size(), 1u);
  b.on(call(0, "wait", 2.0, 3.5, 1, 5));
  ASSERT_EQ(b.ended.size(), 1u);
  EXPECT_EQ(b.ended[0].id, b.started[0].id);
  EXPECT_EQ(b.ended[0].end, 3.5);
}

// Two messages on one (source, tag): MPI matches them in posting order, whatever their arrival order. A receive for
// another tag, or a computation, claims neither; waitall claims every message that has arrived.
TEST(timeline_binder, ReceivesClaimInPostingOrder)
{
  Bound b;
  b.on(call(1, "isend", 0.0, 0.0, 0, 1)); // A, id 0
  b.on(call(1, "isend", 1.0, 1.0, 0, 1)); // B, id 1
  b.on(message(1, 0, 1, 1.0, 3.0));       // B arrives first
  b.on(message(1, 0, 1, 0.0, 5.0));
  b.on(call(0, "compute", 0.0, 5.5));
  b.on(call(0, "recv", 5.5, 6.0, 1, 2));
  EXPECT_TRUE(b.ended.empty());
  b.on(call(0, "recv", 6.0, 6.5, 1, 1));
  ASSERT_EQ(b.ended.size(), 1u);
  EXPECT_EQ(b.ended[0].id, 0u);
  b.on(call(1, "isend", 7.0, 7.0, 0, 9));
  b.on(message(1, 0, 9, 7.0, 7.5));
  b.on(call(0, "waitall", 6.5, 8.0));
  ASSERT_EQ(b.ended.size(), 3u);
  EXPECT_EQ(b.ended[1].id, 1u);
  EXPECT_EQ(b.ended[2].id, 2u);
}

// Messages inside collectives: ignored without internals; with them, they start at their posting date once the
// sender's collective is reported and end with the receiver's collective.
TEST(timeline_binder, MessagesInsideCollectives)
{
  Bound quiet;
  quiet.on(message(0, 1, -3, 0.5, 0.7));
  quiet.on(call(1, "bcast", 0.0, 1.0));
  quiet.on(call(0, "bcast", 0.0, 0.6));
  EXPECT_TRUE(quiet.started.empty() && quiet.ended.empty());

  Bound b;
  b.binder = timeline::MessageBinder(true);
  b.on(message(0, 1, -3, 0.5, 0.7));
  EXPECT_TRUE(b.started.empty());
  b.on(call(1, "recv", 0.0, 0.8, 0, 0)); // a point-to-point receive does not take a collective's message
  EXPECT_TRUE(b.ended.empty());
  b.on(call(0, "bcast", 0.0, 0.6));
  ASSERT_EQ(b.started.size(), 1u);
  EXPECT_EQ(b.started[0].start, 0.5);
  EXPECT_TRUE(b.started[0].collective);
  b.on(call(1, "bcast", 0.8, 1.0));
  ASSERT_EQ(b.ended.size(), 1u);
  EXPECT_EQ(b.ended[0].end, 1.0);
}

// At the end of its trace a rank completes its pending requests without a reported call: such messages end at their
// arrival. A message whose sending call never came starts at its posting date.
TEST(timeline_binder, UnclaimedMessagesEndAtTheirArrival)
{
  Bound b;
  b.on(message(2, 0, 4, 1.5, 2.5));
  b.binder.finish(b.started, b.ended);
  ASSERT_EQ(b.started.size(), 1u);
  EXPECT_EQ(b.started[0].start, 1.5);
  ASSERT_EQ(b.ended.size(), 1u);
  EXPECT_EQ(b.ended[0].end, 2.5);
}

// ------------------------------------------------------------------------------------------------------ formats

// With message ids (the replay gives them), arrows are exact. Two messages from 1 to 0 with tag 0 are in flight at
// once, posted at the same date by two isends (ids 1 and 2); the second, smaller, arrives first (at 0.2, the first at
// 0.3). Rank 0's first wait completes message 1 (ends at 1.0), its second message 2 (ends at 2.0); a wait on one of
// rank 0's own isends in between (ends at 1.5) completes no receive. Without ids the binder would give message 2 to
// the first wait (same posting date, earlier arrival) and message 1 to the isend wait.
TEST(timeline_binder, MessageIdsMakeArrowsExact)
{
  Bound b;
  auto send = [](uint64_t id, double at) {
    mpi::CallRecord c = call(1, "isend", at, at, 0, 0);
    c.sent = id;
    return c;
  };
  auto arrival = [](uint64_t id, double posted, double arrived) {
    mpi::MessageRecord m = message(1, 0, 0, posted, arrived);
    m.id = id;
    return m;
  };
  b.on(send(1, 0.0));
  b.on(send(2, 0.0));
  ASSERT_EQ(b.started.size(), 2u);
  EXPECT_EQ(b.started[0].id, 0u); // flow id = message id - 1
  EXPECT_EQ(b.started[1].id, 1u);
  b.on(arrival(2, 0.0, 0.2));
  b.on(arrival(1, 0.0, 0.3));
  EXPECT_TRUE(b.ended.empty());
  const uint64_t first[] = {1};
  mpi::CallRecord wait1 = call(0, "wait", 0.5, 1.0, 1, 0);
  wait1.received = first;
  b.on(wait1);
  mpi::CallRecord own = call(0, "wait", 1.2, 1.5, 1, 0); // rank 0's isend to 1 with tag 0: no receive
  b.on(own);
  const uint64_t second[] = {2};
  mpi::CallRecord wait2 = call(0, "wait", 1.8, 2.0, 1, 0);
  wait2.received = second;
  b.on(wait2);
  ASSERT_EQ(b.ended.size(), 2u);
  EXPECT_EQ(b.ended[0].id, 0u);
  EXPECT_EQ(b.ended[0].end, 1.0);
  EXPECT_EQ(b.ended[1].id, 1u);
  EXPECT_EQ(b.ended[1].end, 2.0);
  std::vector<timeline::Flow> started, ended;
  b.binder.finish(started, ended);
  EXPECT_TRUE(started.empty());
  EXPECT_TRUE(ended.empty());
}

// A receive completed at the end of a rank's trace ends at its arrival; a message whose sending call is reported
// after it arrived starts at that call's start.
TEST(timeline_binder, MessageIdsUnclaimedAndLateSender)
{
  Bound b;
  mpi::MessageRecord m = message(1, 0, 0, 0.5, 2.0);
  m.id = 7;
  b.on(m);
  EXPECT_TRUE(b.started.empty());
  mpi::CallRecord send = call(1, "send", 0.25, 2.0, 0, 0);
  send.sent = 7;
  b.on(send);
  ASSERT_EQ(b.started.size(), 1u);
  EXPECT_EQ(b.started[0].id, 6u);
  EXPECT_EQ(b.started[0].start, 0.25);
  std::vector<timeline::Flow> started, ended;
  b.binder.finish(started, ended);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].id, 6u);
  EXPECT_EQ(ended[0].end, 2.0);
}

// Messages inside collectives with ids: each arrow starts at its posting date and ends with the call that completed
// its receive, even when an earlier collective of the receiver ends after the arrival (a date-based rule would pick
// that one). Rank 0's second bcast sends message 5 at 1.2; it arrives at 1.3 while rank 1 is still in its first bcast
// (ends at 1.4); rank 1's second bcast (ends at 2.0) receives it.
TEST(timeline_binder, CollectiveMessageIdsMakeArrowsExact)
{
  Bound b;
  b.binder = timeline::MessageBinder(true);
  mpi::MessageRecord m = message(0, 1, -2, 1.2, 1.3);
  m.id = 5;
  b.on(m);
  EXPECT_TRUE(b.started.empty());
  const uint64_t five[] = {5};
  mpi::CallRecord first = call(1, "bcast", 0.0, 1.4);
  b.on(first);
  EXPECT_TRUE(b.ended.empty());
  mpi::CallRecord sender = call(0, "bcast", 1.2, 1.25);
  sender.collective_sent = five;
  b.on(sender);
  ASSERT_EQ(b.started.size(), 1u);
  EXPECT_EQ(b.started[0].id, 4u);
  EXPECT_EQ(b.started[0].start, 1.2);
  EXPECT_TRUE(b.started[0].collective);
  mpi::CallRecord second = call(1, "bcast", 1.4, 2.0);
  second.collective_received = five;
  b.on(second);
  ASSERT_EQ(b.ended.size(), 1u);
  EXPECT_EQ(b.ended[0].id, 4u);
  EXPECT_EQ(b.ended[0].end, 2.0);
  std::vector<timeline::Flow> started, ended;
  b.binder.finish(started, ended);
  EXPECT_TRUE(started.empty() && ended.empty());
}

TEST(timeline_chrome, OneSlicePerCallOneFlowPerMessage)
{
  Scratch scratch;
  const std::string path = scratch.write("basic.json", "");
  Recorder recorder = replay_basic(path);
  const std::string text = read(path);
  ASSERT_TRUE(balanced_json(text));
  ASSERT_EQ(text.rfind("{\"traceEvents\":[\n", 0), 0u);
  EXPECT_TRUE(contains(text, "\"otherData\":{\"trace\":\"")) << text.substr(text.size() - 300);

  std::vector<std::string> slices;
  std::map<std::string, std::vector<std::string>> flows; // id -> its s and f lines
  size_t names = 0;
  for (const std::string& line : lines_of(path)) {
    const std::string ph = field(line, "ph");
    if (ph == "\"X\"") {
      slices.push_back(line);
      for (const char* key : {"name", "ts", "dur", "pid", "tid", "operation", "peer", "bytes", "tag", "communicator"})
        EXPECT_FALSE(field(line, key).empty()) << key << " missing in " << line;
    } else if (ph == "\"s\"" || ph == "\"f\"") {
      flows[field(line, "id")].push_back(line);
    } else if (contains(line, "\"thread_name\"")) {
      ++names;
    }
  }
  EXPECT_EQ(slices.size(), recorder.calls.size());
  EXPECT_EQ(names, 4u);
  ASSERT_EQ(flows.size(), kPointToPoint);
  for (const auto& [id, pair] : flows) {
    ASSERT_EQ(pair.size(), 2u) << id;
    EXPECT_EQ(field(pair[0], "ph") + field(pair[1], "ph"), "\"s\"\"f\"") << id;
    EXPECT_EQ(field(pair[1], "bp"), "\"e\"");
  }

  // 3 -> 0 (tag 7): from rank 3's send, which starts at 0, to the end of rank 0's "wait 3 0 7".
  const mpi::CallRecord* wait = nullptr;
  for (const auto& c : recorder.calls)
    if (c.rank == 0 && std::strcmp(c.operation, "wait") == 0)
      wait = &c;
  ASSERT_NE(wait, nullptr);
  bool found = false;
  for (const auto& [id, pair] : flows)
    if (field(pair[0], "tid") == "3") {
      found = true;
      EXPECT_EQ(field(pair[0], "ts"), "0.000");
      EXPECT_EQ(field(pair[1], "tid"), "0");
      EXPECT_NEAR(std::stod(field(pair[1], "ts")), wait->end * 1e6, 1e-3);
    }
  EXPECT_TRUE(found);
}

TEST(timeline_chrome, InternalsAddTheCollectivesMessages)
{
  Scratch scratch;
  const std::string path = scratch.write("basic.json", "");
  replay_basic(path, "", true);
  size_t starts = 0, ends = 0;
  for (const std::string& line : lines_of(path)) {
    starts += field(line, "ph") == "\"s\"";
    ends += field(line, "ph") == "\"f\"";
  }
  EXPECT_EQ(starts, kPointToPoint + kInsideCollectives);
  EXPECT_EQ(ends, kPointToPoint + kInsideCollectives);
}

TEST(timeline_paje, OneStatePerCallOneLinkPerMessage)
{
  Scratch scratch;
  const std::string path = scratch.write("basic.paje", "");
  Recorder recorder = replay_basic(path);
  const auto lines = lines_of(path);
  EXPECT_EQ(count_prefix(lines, "12 "), recorder.calls.size());
  EXPECT_EQ(count_prefix(lines, "14 "), recorder.calls.size());
  EXPECT_EQ(count_prefix(lines, "16 "), kPointToPoint);
  EXPECT_EQ(count_prefix(lines, "19 "), kPointToPoint);
  EXPECT_EQ(count_prefix(lines, "6 "), 5u); // root and 4 ranks
  EXPECT_EQ(count_prefix(lines, "# model: smpi"), 1u);

  // Chronological: dates never decrease after the definitions.
  double last = 0;
  for (const std::string& line : lines)
    if (line.rfind("12 ", 0) == 0 || line.rfind("14 ", 0) == 0 || line.rfind("16 ", 0) == 0 ||
        line.rfind("19 ", 0) == 0) {
      const double date = std::stod(line.substr(3));
      EXPECT_GE(date, last) << line;
      last = date;
    }

  replay_basic(path, "paje", true);
  const auto with_internals = lines_of(path);
  EXPECT_EQ(count_prefix(with_internals, "16 "), kPointToPoint + kInsideCollectives);
  EXPECT_EQ(count_prefix(with_internals, "19 "), kPointToPoint + kInsideCollectives);
}

TEST(timeline_csv, OneRowPerCallAndPerMessage)
{
  Scratch scratch;
  const std::string path = scratch.write("basic.csv", "");
  Recorder recorder = replay_basic(path);
  const auto calls = lines_of(path);
  const auto messages = lines_of(path.substr(0, path.size() - 4) + ".messages.csv");
  EXPECT_EQ(count_prefix(calls, "rank,operation,start,end,duration,peer,bytes,tag,communicator"), 1u);
  EXPECT_EQ(calls.size() - count_prefix(calls, "#") - 1, recorder.calls.size());
  EXPECT_EQ(messages.size() - count_prefix(messages, "#") - 1, kPointToPoint);
  // Rank 0's send: 1 MB to rank 1 from 1 s on.
  EXPECT_EQ(count_prefix(calls, "0,send,1,"), 1u);
  replay_basic(path, "", true);
  const auto all_messages = lines_of(path.substr(0, path.size() - 4) + ".messages.csv");
  EXPECT_EQ(all_messages.size() - count_prefix(all_messages, "#") - 1, kPointToPoint + kInsideCollectives);
}

// Equal runs give equal files.
TEST(timeline_chrome, SameRunSameFile)
{
  Scratch scratch;
  for (const char* name : {"a.json", "a.paje", "a.csv"}) {
    const std::string path = scratch.write(name, "");
    replay_basic(path, "", true);
    const std::string first = read(path);
    replay_basic(path, "", true);
    EXPECT_EQ(first, read(path)) << name;
  }
}

// A restarted run as the runner reports it: attempt 1 from 0 to 0.4 s, aborted after rank 1 failed at 0.35 s; attempt
// 2 from 0.9 s (0.5 s of restart cost) on, where rank 0 computes until 1 s and rank 1 fails at 1.25 s after a
// compute until 1.1 s. Each writer marks the three events at those dates; Paje ends rank 1's line at 1.25 s only.
void write_failures_and_attempts(timeline::TimelineWriter& writer)
{
  writer.failure({1, 0.35});
  writer.attempt({1, 0.0, 0.4, "process-failure"});
  writer.attempt({2, 0.9, -1, ""});
  writer.call(call(0, "compute", 0.9, 1.0));
  writer.call(call(1, "compute", 0.9, 1.1));
  writer.failure({1, 1.25});
  writer.finish();
}

std::unique_ptr<timeline::TimelineWriter> open_writer(const std::string& path)
{
  timeline::TimelineOptions options;
  options.path = path;
  return timeline::open_timeline(options);
}

TEST(timeline_failures, ChromeInstantEventsOnTheTrackAndAcrossTracks)
{
  Scratch scratch;
  const std::string path = scratch.write("f.json", "");
  write_failures_and_attempts(*open_writer(path));
  const std::string text = read(path);
  EXPECT_TRUE(balanced_json(text));
  EXPECT_TRUE(contains(text, R"({"name":"failure","cat":"failure","ph":"i","s":"t","pid":0,"tid":1,"ts":350000.000,)"
                             R"("args":{"rank":1}})"));
  EXPECT_TRUE(
      contains(text, R"({"name":"failure","cat":"failure","ph":"i","s":"t","pid":0,"tid":1,"ts":1250000.000,)"));
  EXPECT_TRUE(contains(text,
                       R"({"name":"attempt 1 starts","cat":"attempt","ph":"i","s":"g","pid":0,"tid":0,"ts":0.000,)"
                       R"("args":{"attempt":1}})"));
  EXPECT_TRUE(contains(text, R"({"name":"attempt 1 ends","cat":"attempt","ph":"i","s":"g","pid":0,"tid":0,)"
                             R"("ts":400000.000,"args":{"attempt":1,"outcome":"process-failure"}})"));
  EXPECT_TRUE(contains(text, R"({"name":"attempt 2 starts","cat":"attempt","ph":"i","s":"g","pid":0,"tid":0,)"
                             R"("ts":900000.000,"args":{"attempt":2}})"));
  EXPECT_FALSE(contains(text, "attempt 2 ends"));
}

TEST(timeline_failures, PajeEventsInDateOrderAndTheLineEndsAtTheLastAttemptsFailure)
{
  Scratch scratch;
  const std::string path = scratch.write("f.paje", "");
  write_failures_and_attempts(*open_writer(path));
  std::vector<std::string> body;
  for (const std::string& line : lines_of(path))
    if (not line.empty() && line[0] != '#' && line[0] != '%' && line.rfind("20 ", 0) == 0)
      body.push_back(line);
  EXPECT_EQ(body, (std::vector<std::string>{"20 0.000000000 root ATTEMPT start", "20 0.350000000 r1 FAIL failed",
                                            "20 0.400000000 root ATTEMPT end", "20 0.900000000 root ATTEMPT start",
                                            "20 1.250000000 r1 FAIL failed"}));
  const auto lines = lines_of(path);
  const auto at = std::find(lines.begin(), lines.end(), "20 1.250000000 r1 FAIL failed");
  ASSERT_NE(at, lines.end());
  EXPECT_EQ(*(at + 1), "7 1.250000000 RANK r1");               // destroyed with its failure in the running attempt
  EXPECT_EQ(count_prefix(lines, "7 0.350000000"), 0u);         // not with the first attempt's
  EXPECT_EQ(count_prefix(lines, "7 1.250000000 RANK r0"), 1u); // the others last to the end
}

TEST(timeline_failures, CsvEventsFileOnlyWhenThereAreEvents)
{
  Scratch scratch;
  const std::string path = scratch.write("f.csv", "");
  write_failures_and_attempts(*open_writer(path));
  std::vector<std::string> rows;
  for (const std::string& line : lines_of(path.substr(0, path.size() - 4) + ".events.csv"))
    if (line.rfind("#", 0) != 0)
      rows.push_back(line);
  EXPECT_EQ(rows, (std::vector<std::string>{"event,time,rank,attempt,outcome", "failure,0.35,1,-1,",
                                            "attempt-start,0,-1,1,", "attempt-end,0.4,-1,1,process-failure",
                                            "attempt-start,0.9,-1,2,", "failure,1.25,1,-1,"}));
  const std::string plain = scratch.write("plain.csv", "");
  open_writer(plain)->finish();
  EXPECT_FALSE(std::ifstream(plain.substr(0, plain.size() - 4) + ".events.csv").good());
}

} // namespace
