// The reader's pieces on their own, without files: tokenizing (TraceLine), one action line into a TraceAction with its
// bytes and collective call filled in (ActionParser, ActionSizes), and the file:line of every error they raise.
#include "replay/ActionParser.hpp"
#include "replay/ActionSizes.hpp"
#include "replay/TraceLine.hpp"

#include "common/Errors.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

using namespace mpisim;
using namespace mpisim::replay;

namespace {

const std::string kFile = "t.txt";

// Parses `line` as line 3 of rank 0's file in a trace of `ranks` ranks, with the given default datatype.
TraceAction parse(const std::string& line, int ranks = 4, int8_t default_datatype = kDatatypeByte)
{
  std::vector<std::string_view> tokens;
  EXPECT_TRUE(split_line(line, tokens)) << line;
  TraceAction action;
  parse_action(tokens, 0, ranks, default_datatype, LineSite{kFile, 3}, action);
  return action;
}

std::string error_of(const std::string& line, int ranks = 4)
{
  try {
    parse(line, ranks);
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

} // namespace

// ------------------------------------------------------------------------------------------------------- tokenizing

TEST(TraceLineTest, SplitsOnRunsOfBlanksAndSkipsCommentsAndBlankLines)
{
  std::vector<std::string_view> tokens;
  ASSERT_TRUE(split_line(" \t0  send\t1 42  1000\r", tokens));
  EXPECT_EQ(tokens, (std::vector<std::string_view>{"0", "send", "1", "42", "1000"}));
  EXPECT_FALSE(split_line("   \t\r", tokens));
  EXPECT_TRUE(tokens.empty());
  EXPECT_FALSE(split_line("  # 0 send 1 1 1", tokens));
  EXPECT_TRUE(tokens.empty());
}

TEST(TraceLineTest, NumbersParseWholeTokensOnly)
{
  int i = 0;
  double d = 0;
  EXPECT_TRUE(parse_int("+42", i));
  EXPECT_EQ(i, 42);
  EXPECT_TRUE(parse_int("-7", i));
  EXPECT_EQ(i, -7);
  EXPECT_FALSE(parse_int("12x", i));
  EXPECT_FALSE(parse_int("+-1", i));
  EXPECT_FALSE(parse_int("+", i));
  EXPECT_FALSE(parse_int("1e3", i));
  EXPECT_TRUE(parse_double("1e3", d));
  EXPECT_EQ(d, 1000.0);
  EXPECT_FALSE(parse_double("inf", d));
  EXPECT_FALSE(parse_double("nan", d));
  EXPECT_FALSE(parse_double("1.5.", d));
}

// The digits-only fast path gives what from_chars gives, on its boundaries: 15 digits (the longest fast double), 16
// (from_chars: 2^53 + 1 rounds to 2^53), 9 and 10 digits for ints (10 digits overflow past 2147483647), leading zeros,
// '+', and tokens it must hand over (`1e3`, `-0`, `12.5`, `+-1`, `++1`).
TEST(TraceLineTest, DigitsOnlyNumbersMatchFromChars)
{
  const auto from_chars_double = [](std::string_view text) {
    if (not text.empty() && text.front() == '+')
      text.remove_prefix(1);
    double value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
  };
  for (const std::string_view text : {"0", "7", "00", "000123", "+5", "+0000", "999999999999999", "100000000000000",
                                      "123456789012345", "9007199254740993", "9999999999999999", "12345678901234567890",
                                      "1e3", "12.5", "-0", "-12", "+1.5e2", "1E+02"}) {
    double value = -1;
    ASSERT_TRUE(parse_double(text, value)) << text;
    EXPECT_EQ(value, from_chars_double(text)) << text;
    EXPECT_EQ(std::signbit(value), std::signbit(from_chars_double(text))) << text;
  }
  double d = 0;
  EXPECT_TRUE(parse_double("9007199254740993", d)); // 16 digits: from_chars rounds to even
  EXPECT_EQ(d, 9007199254740992.0);
  EXPECT_TRUE(parse_double("-0", d));
  EXPECT_TRUE(std::signbit(d));
  for (const std::string_view bad :
       {"", "+", "++1", "+-1", "1 ", "1x", "x1", "1/", ":1", "1.5.", "inf", "0x10", "12345a78"})
    EXPECT_FALSE(parse_double(bad, d)) << bad;

  int i = 0;
  EXPECT_TRUE(parse_int("000000007", i));
  EXPECT_EQ(i, 7);
  EXPECT_TRUE(parse_int("999999999", i));
  EXPECT_EQ(i, 999999999);
  EXPECT_TRUE(parse_int("+2147483647", i));
  EXPECT_EQ(i, 2147483647);
  EXPECT_TRUE(parse_int("0000000000042", i)); // longer than the fast path: from_chars reads the zeros too
  EXPECT_EQ(i, 42);
  EXPECT_FALSE(parse_int("2147483648", i));
  EXPECT_FALSE(parse_int("9999999999", i));
  for (const std::string_view bad : {"", "+", "++1", "1e3", "12.5", "1x", "/", ":"})
    EXPECT_FALSE(parse_int(bad, i)) << bad;
}

// The word-at-a-time tokenizer against the definition (trim, then split on runs of blanks), on lines mixing every
// blank, control characters that are no blanks (part of tokens), bytes above 0x7f, and tokens across 8-byte words;
// split_buffered_line too, with bytes after the line that would end or extend its last token if it read them as its.
TEST(TraceLineTest, SplitMatchesTrimAndSplitOnRandomLines)
{
  const auto reference = [](std::string_view line) {
    std::vector<std::string_view> tokens;
    line = trim(line);
    if (line.empty() || line.front() == '#')
      return tokens;
    size_t position = 0;
    while (position < line.size()) {
      const size_t start = position;
      while (position < line.size() && not is_blank(line[position]))
        ++position;
      tokens.push_back(line.substr(start, position - start));
      while (position < line.size() && is_blank(line[position]))
        ++position;
    }
    return tokens;
  };
  constexpr char kCharacters[] = " \t\r\v\f \n\x01\x1f!#09az\x7f\x80\xff"; // and its final '\0'
  const std::string alphabet(kCharacters, sizeof kCharacters);
  std::vector<std::string_view> tokens;
  uint64_t state = 12345;
  for (int round = 0; round < 20000; ++round) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const size_t length = (state >> 33) % 40;
    std::string line;
    for (size_t i = 0; i < length; ++i) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      // Mostly word characters, so that tokens of many lengths occur.
      const size_t pick = (state >> 33) % (2 * alphabet.size());
      line += pick < alphabet.size() ? alphabet[pick] : static_cast<char>('a' + pick % 26);
    }
    const std::vector<std::string_view> expected = reference(line);
    EXPECT_EQ(split_line(line, tokens), not expected.empty()) << round;
    EXPECT_EQ(tokens, expected) << round;
    // The same line followed by 8 bytes that are no part of it, as a ChunkedLineReader's buffer holds it.
    const std::string buffered = line + (round % 2 == 0 ? std::string("xxxxxxxx") : std::string(" \n\0\t#x  ", 8));
    EXPECT_EQ(split_buffered_line(std::string_view(buffered).substr(0, line.size()), tokens), not expected.empty())
        << round;
    EXPECT_EQ(tokens, reference(std::string_view(buffered).substr(0, line.size()))) << round;
  }
}

TEST(TraceLineTest, RankFieldErrorsNameFileAndLine)
{
  EXPECT_EQ(parse_rank_field("12", LineSite{kFile, 9}), 12);
  try {
    parse_rank_field("-1", LineSite{kFile, 9});
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "t.txt:9: rank field '-1' is not a rank number");
    EXPECT_EQ(error.line(), 9);
  }
}

TEST(TraceLineTest, ActionLinesAreTellableFromIndexLines)
{
  std::vector<std::string_view> tokens;
  split_line("0 compute 10", tokens);
  EXPECT_TRUE(is_action_line(tokens));
  split_line("traces/rank0.txt", tokens);
  EXPECT_FALSE(is_action_line(tokens));
  split_line("3 4", tokens);
  EXPECT_FALSE(is_action_line(tokens));
}

// -------------------------------------------------------------------------------------------- actions with bytes

// Point-to-point: count x datatype size. 1000 MPI_DOUBLE = 8000 B; 10 MPI_INT = 40 B; without a datatype the rank's
// default applies (MPI_BYTE, or MPI_DOUBLE after `init <anything>`).
TEST(ActionParserTest, PointToPointCarriesBytes)
{
  const TraceAction send = parse("0 send 1 42 1000 0");
  EXPECT_EQ(send.kind, ActionKind::Send);
  EXPECT_EQ(send.amount, 8000);
  EXPECT_EQ(send.dst, 1);
  EXPECT_EQ(send.tag, 42);
  EXPECT_EQ(send.line, 3u);
  EXPECT_FALSE(send.details);

  EXPECT_EQ(parse("0 irecv 2 7 10 1").amount, 40);
  EXPECT_EQ(parse("0 isend 2 7 10").amount, 10);
  EXPECT_EQ(parse("0 isend 2 7 10", 4, kDatatypeDouble).amount, 80);

  const TraceAction exchange = parse("0 sendRecv 3 1 5 2 1 14"); // 3 MPI_INT out, 5 MPI_LONG_DOUBLE in
  EXPECT_EQ(exchange.amount, 12);
  EXPECT_EQ(exchange.amount2, 80);
}

// A receive of negative size means "probe first": the count is kept (it is no size), even with a 0-byte datatype.
TEST(ActionParserTest, ProbingReceiveKeepsItsNegativeCount)
{
  EXPECT_EQ(parse("0 recv 1 0 -3 0").amount, -3);
  EXPECT_EQ(parse("0 recv 1 0 -3 -1").amount, -3);
}

// `init <anything>` makes MPI_DOUBLE the rank's default for the lines after it.
TEST(ActionParserTest, InitChangesTheDefaultForLaterLines)
{
  std::vector<std::string_view> tokens;
  int8_t default_datatype = kDatatypeByte;
  TraceAction action;
  split_line("0 init mpe", tokens);
  parse_action(tokens, 0, 4, default_datatype, LineSite{kFile, 1}, action);
  EXPECT_EQ(default_datatype, kDatatypeDouble);
  split_line("0 bcast 10", tokens);
  parse_action(tokens, 0, 4, default_datatype, LineSite{kFile, 2}, action);
  EXPECT_EQ(action.amount, 80);
  EXPECT_EQ(action.details->call.bytes, 80);
}

// Every collective carries its MPI collective and the complete call: bytes, per-rank byte arrays, root, flops.
TEST(ActionParserTest, CollectivesCarryTheirCall)
{
  const TraceAction reduce = parse("0 reduce 50 2e3 2 1"); // 50 MPI_INT to root 2, 2000 flops
  ASSERT_TRUE(reduce.details);
  const mpi::CollectiveCall& r = reduce.details->call;
  EXPECT_EQ(r.op, mpi::Collective::Reduce);
  EXPECT_EQ(r.bytes, 200);
  EXPECT_EQ(r.root, 2);
  EXPECT_EQ(r.reduce_flops, 2000);
  EXPECT_EQ(reduce.amount, 200);
  EXPECT_EQ(reduce.amount2, 2000); // flops are no count: kept

  const TraceAction gather = parse("0 gather 4 4 1 1 0"); // 4 MPI_INT sent, 4 MPI_DOUBLE received per rank
  EXPECT_EQ(gather.details->call.op, mpi::Collective::Gather);
  EXPECT_EQ(gather.details->call.bytes, 16);
  EXPECT_EQ(gather.details->call.recv_bytes, 32);
  EXPECT_EQ(gather.details->call.root, 1);

  const TraceAction barrier = parse("0 barrier");
  EXPECT_EQ(barrier.details->call.op, mpi::Collective::Barrier);
  EXPECT_EQ(barrier.details->call.bytes, 0);

  EXPECT_EQ(parse("0 allreduce 1 0").details->call.op, mpi::Collective::Allreduce);
  EXPECT_EQ(parse("0 scan 1 0").details->call.op, mpi::Collective::Scan);
  EXPECT_EQ(parse("0 exscan 1 0").details->call.op, mpi::Collective::Exscan);
  EXPECT_EQ(parse("0 alltoall 1 1").details->call.op, mpi::Collective::Alltoall);
  EXPECT_EQ(parse("0 allgather 1 1").details->call.op, mpi::Collective::Allgather);
  EXPECT_EQ(parse("0 scatter 1 1").details->call.op, mpi::Collective::Scatter);
}

// The v-collectives' per-rank arrays arrive in bytes: counts x size of the datatype they go with.
TEST(ActionParserTest, VCollectivesCarryByteArrays)
{
  // alltoallv sendbufsize sendcounts[4] recvbufsize recvcounts[4] send=MPI_INT recv=MPI_DOUBLE
  const TraceAction alltoallv = parse("0 alltoallv 10 1 2 3 4 10 4 3 2 1 1 0");
  const mpi::CollectiveCall& a = alltoallv.details->call;
  EXPECT_EQ(a.op, mpi::Collective::Alltoallv);
  EXPECT_EQ(a.send_counts, (std::vector<double>{4, 8, 12, 16}));
  EXPECT_EQ(a.recv_counts, (std::vector<double>{32, 24, 16, 8}));
  EXPECT_EQ(alltoallv.amount, 40);
  EXPECT_EQ(alltoallv.amount2, 80);

  // allgatherv without displacements: P zeros; with: scaled like the counts (MPI_INT).
  const TraceAction packed = parse("0 allgatherv 1 1 2 3 4");
  EXPECT_EQ(packed.details->call.op, mpi::Collective::Allgatherv);
  EXPECT_EQ(packed.details->call.bytes, 1);
  EXPECT_EQ(packed.details->call.recv_counts, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(packed.details->call.recv_displs, (std::vector<double>{0, 0, 0, 0}));
  const TraceAction placed = parse("0 allgatherv 1 1 2 3 4 1 1 0 1 3 6");
  EXPECT_EQ(placed.details->call.recv_counts, (std::vector<double>{4, 8, 12, 16}));
  EXPECT_EQ(placed.details->call.recv_displs, (std::vector<double>{0, 4, 12, 24}));

  const TraceAction scatterv = parse("0 scatterv 1 2 3 4 5 3 0 0"); // send MPI_DOUBLE, root 3
  EXPECT_EQ(scatterv.details->call.op, mpi::Collective::Scatterv);
  EXPECT_EQ(scatterv.details->call.send_counts, (std::vector<double>{8, 16, 24, 32}));
  EXPECT_EQ(scatterv.details->call.recv_bytes, 40);
  EXPECT_EQ(scatterv.details->call.root, 3);
  EXPECT_EQ(scatterv.amount, 80); // the sum of the send counts, in bytes

  const TraceAction gatherv = parse("0 gatherv 2 1 2 3 4 1 0 1"); // send MPI_DOUBLE, recv MPI_INT, root 1
  EXPECT_EQ(gatherv.details->call.op, mpi::Collective::Gatherv);
  EXPECT_EQ(gatherv.details->call.bytes, 16);
  EXPECT_EQ(gatherv.details->call.recv_counts, (std::vector<double>{4, 8, 12, 16}));
  EXPECT_EQ(gatherv.details->call.root, 1);

  const TraceAction reducescatter = parse("0 reducescatter 5 5 5 5 7 0"); // MPI_DOUBLE, 7 flops
  const mpi::CollectiveCall& rs = reducescatter.details->call;
  EXPECT_EQ(rs.op, mpi::Collective::ReduceScatter);
  EXPECT_EQ(rs.recv_counts, (std::vector<double>{40, 40, 40, 40}));
  EXPECT_EQ(rs.element_bytes, 8);
  EXPECT_EQ(rs.reduce_flops, 7);
  EXPECT_EQ(rs.bytes, 0);
}

// One record reused for a v-collective, then a plain collective, then a send: nothing of the earlier line stays.
TEST(ActionParserTest, RecycledRecordKeepsNothingOfTheLastLine)
{
  std::vector<std::string_view> tokens;
  int8_t default_datatype = kDatatypeByte;
  TraceAction action;
  split_line("0 alltoallv 10 1 2 3 4 10 4 3 2 1 1 0", tokens);
  parse_action(tokens, 0, 4, default_datatype, LineSite{kFile, 1}, action);
  split_line("0 bcast 10 2", tokens);
  parse_action(tokens, 0, 4, default_datatype, LineSite{kFile, 2}, action);
  ASSERT_TRUE(action.details);
  EXPECT_EQ(action.details->call.op, mpi::Collective::Bcast);
  EXPECT_TRUE(action.details->call.send_counts.empty());
  EXPECT_TRUE(action.details->call.recv_counts.empty());
  EXPECT_EQ(action.details->call.root, 2);
  EXPECT_EQ(action.amount2, 0);
  split_line("0 send 1 1 1", tokens);
  parse_action(tokens, 0, 4, default_datatype, LineSite{kFile, 3}, action);
  EXPECT_FALSE(action.details);
  EXPECT_EQ(action.root, 0);
}

TEST(ActionParserTest, CollectiveOfEveryCollectiveKind)
{
  for (size_t i = 0; i < kActionKindCount; ++i) {
    const auto kind = static_cast<ActionKind>(i);
    if (is_collective(kind))
      EXPECT_NO_THROW(collective_of(kind)) << action_name(kind);
    else
      EXPECT_THROW(collective_of(kind), std::logic_error) << action_name(kind);
  }
}

// ------------------------------------------------------------------------------------------------------- errors

TEST(ActionParserTest, ErrorsNameFileLineActionAndValue)
{
  EXPECT_EQ(error_of("0"), "t.txt:3: missing action name after the rank field");
  EXPECT_EQ(error_of("0 sned 1 1 1"), "t.txt:3: unknown action 'sned'");
  EXPECT_EQ(error_of("0 send 9 1 1"), "t.txt:3: send: dst '9' is out of range [0, 4)");
  EXPECT_EQ(error_of("0 send 1 1 12x"), "t.txt:3: send: count '12x' is not a number");
  EXPECT_EQ(error_of("0 send 1 1 -2"), "t.txt:3: send: count '-2' is negative");
  EXPECT_EQ(error_of("0 send 1 1 2 60"), "t.txt:3: send: datatype '60' is not a TI datatype id (-1 to 59)");
  EXPECT_EQ(error_of("0 bcast"), "t.txt:3: bcast: takes 1 to 3 arguments (count [root] [datatype]), got 0");
  EXPECT_EQ(error_of("0 gatherv 1 1 2"),
            "t.txt:3: gatherv: takes 5 to 8 arguments with P = 4 ranks (sendcount recvcounts[P] [root] "
            "[send_datatype] [recv_datatype]), got 3");
  EXPECT_EQ(error_of("0 alltoallv 4 1 1 x 1 4 1 1 1 1"), "t.txt:3: alltoallv: sendcounts[2] 'x' is not a number");
}

// ---------------------------------------------------------------------------------------- MPI-IO (mpisim extension)

TEST(ActionParserTest, FileActionsKeepTheNameTheOffsetAndTheBytes)
{
  TraceAction open = parse("0 file_open out/data.bin self");
  EXPECT_EQ(open.kind, ActionKind::FileOpen);
  ASSERT_NE(open.details, nullptr);
  EXPECT_EQ(open.details->file, "out/data.bin");
  EXPECT_EQ(open.tag, 1);
  EXPECT_EQ(parse("0 file_open d world").tag, 0);

  TraceAction at = parse("0 file_write_at_all d 1e6 4096");
  EXPECT_EQ(at.kind, ActionKind::FileWriteAtAll);
  EXPECT_EQ(at.amount, 4096);
  EXPECT_EQ(at.amount2, 1e6);
  EXPECT_TRUE(is_collective_access(at.kind) && is_explicit_offset(at.kind) && is_file_write(at.kind));
  EXPECT_FALSE(is_collective(at.kind)); // no CollectiveCall: the replayer runs it through the storage model

  TraceAction read = parse("0 file_read d 100");
  EXPECT_EQ(read.kind, ActionKind::FileRead);
  EXPECT_EQ(read.amount, 100);
  EXPECT_FALSE(is_explicit_offset(read.kind) || is_file_write(read.kind) || is_collective_access(read.kind));
  EXPECT_EQ(parse("0 file_seek d 2048").amount, 2048);
  EXPECT_EQ(parse("0 file_set_size d 10").amount, 10);
  EXPECT_EQ(parse("0 file_sync d").kind, ActionKind::FileSync);
  EXPECT_EQ(parse("0 file_close d").kind, ActionKind::FileClose);
}

TEST(ActionParserTest, SharedOrderedAndNonBlockingFileActions)
{
  TraceAction shared = parse("0 file_write_shared d 300");
  EXPECT_EQ(shared.kind, ActionKind::FileWriteShared);
  EXPECT_EQ(shared.amount, 300);
  EXPECT_TRUE(is_shared_pointer(shared.kind) && is_file_write(shared.kind) && is_file_access(shared.kind));
  EXPECT_FALSE(is_collective_access(shared.kind) || is_nonblocking_access(shared.kind));

  TraceAction ordered = parse("0 file_read_ordered d 200");
  EXPECT_EQ(ordered.kind, ActionKind::FileReadOrdered);
  EXPECT_TRUE(is_shared_pointer(ordered.kind) && is_collective_access(ordered.kind));
  EXPECT_FALSE(is_file_write(ordered.kind) || is_explicit_offset(ordered.kind));

  TraceAction posted = parse("0 file_iwrite_at d 4096 100");
  EXPECT_EQ(posted.kind, ActionKind::FileIWriteAt);
  EXPECT_EQ(posted.amount, 100);
  EXPECT_EQ(posted.amount2, 4096);
  EXPECT_TRUE(is_nonblocking_access(posted.kind) && is_explicit_offset(posted.kind) && is_file_write(posted.kind));
  EXPECT_TRUE(is_nonblocking_access(parse("0 file_iread_shared d 1").kind));

  // A non-blocking or split collective: collective, posted, at an explicit offset; a read or a write.
  TraceAction collective = parse("0 file_iwrite_at_all d 32768 65536");
  EXPECT_EQ(collective.kind, ActionKind::FileIWriteAtAll);
  EXPECT_EQ(collective.amount, 65536);
  EXPECT_EQ(collective.amount2, 32768);
  EXPECT_TRUE(is_collective_access(collective.kind) && is_nonblocking_access(collective.kind) &&
              is_explicit_offset(collective.kind) && is_file_write(collective.kind) && is_file_access(collective.kind));
  const ActionKind read_all = parse("0 file_iread_at_all d 0 8").kind;
  EXPECT_EQ(read_all, ActionKind::FileIReadAtAll);
  EXPECT_TRUE(is_collective_access(read_all) && is_nonblocking_access(read_all));
  EXPECT_FALSE(is_file_write(read_all));
  EXPECT_EQ(error_of("0 file_iread_at_all d 0"),
            "t.txt:3: file_iread_at_all: takes 3 arguments (file offset bytes), got 2");

  const ActionKind ordered_split = parse("0 file_iwrite_ordered d 10").kind;
  EXPECT_EQ(ordered_split, ActionKind::FileIWriteOrdered);
  EXPECT_TRUE(is_ordered_access(ordered_split) && is_shared_pointer(ordered_split) &&
              is_collective_access(ordered_split) && is_nonblocking_access(ordered_split) &&
              is_file_write(ordered_split));
  EXPECT_FALSE(is_explicit_offset(ordered_split) || is_file_write(parse("0 file_iread_ordered d 10").kind));

  TraceAction wait = parse("0 file_wait d 3");
  EXPECT_EQ(wait.kind, ActionKind::FileWait);
  EXPECT_EQ(wait.amount, 3);
  EXPECT_FALSE(is_file_access(wait.kind));
  EXPECT_EQ(parse("0 file_seek_shared d 64").amount, 64);
  EXPECT_FALSE(is_file_access(ActionKind::FileSeekShared));
  EXPECT_EQ(error_of("0 file_wait d -1"), "t.txt:3: file_wait: access number '-1' is negative");
}

TEST(ActionParserTest, BadFileActionsNameTheLineAndTheValue)
{
  EXPECT_EQ(error_of("0 file_open d both"), "t.txt:3: file_open: opener 'both' is neither 'world' nor 'self'");
  EXPECT_EQ(error_of("0 file_write_at d -4 10"), "t.txt:3: file_write_at: offset '-4' is negative");
  EXPECT_EQ(error_of("0 file_read d x"), "t.txt:3: file_read: bytes 'x' is not a number");
  EXPECT_EQ(error_of("0 file_seek d"), "t.txt:3: file_seek: takes 2 arguments (file offset), got 1");
  EXPECT_EQ(error_of("0 file_set_size d -1"), "t.txt:3: file_set_size: size '-1' is negative");
}

// ----------------------------------------------------------------------------- the fast path of the common lines

namespace {

// The fast path's action for `line` as rank `rank`'s in a trace of `ranks` ranks, the line buffered as the line reader
// hands it over: '\n', then 7 bytes of `after` (digits by default: a scan must stop at the line's end, not run on).
std::optional<TraceAction> parse_plain(const std::string& line, int rank = 0, int ranks = 4,
                                       int8_t default_datatype = kDatatypeByte, char after = '7')
{
  std::string buffered = line + '\n' + std::string(7, after);
  std::string_view rest(buffered.data(), line.size());
  TraceAction action;
  action.details = std::make_unique<ActionDetails>(); // a recycled record: the fast path releases its details
  if (not PlainRankField(rank).skip(rest) || not parse_plain_action(rest, rank, ranks, default_datatype, 3, action))
    return std::nullopt;
  return action;
}

// The general parse of `line` as rank `rank`'s.
TraceAction parse_general(const std::string& line, int rank, int ranks, int8_t default_datatype)
{
  std::vector<std::string_view> tokens;
  EXPECT_TRUE(split_line(line, tokens)) << line;
  EXPECT_EQ(parse_rank_field(tokens[0], LineSite{kFile, 3}), rank) << line;
  TraceAction action;
  parse_action(tokens, rank, ranks, default_datatype, LineSite{kFile, 3}, action);
  return action;
}

void expect_same_action(const TraceAction& plain, const TraceAction& general, const std::string& line)
{
  EXPECT_EQ(std::bit_cast<uint64_t>(plain.amount), std::bit_cast<uint64_t>(general.amount)) << line;
  EXPECT_EQ(std::bit_cast<uint64_t>(plain.amount2), std::bit_cast<uint64_t>(general.amount2)) << line;
  EXPECT_EQ(plain.src, general.src) << line;
  EXPECT_EQ(plain.dst, general.dst) << line;
  EXPECT_EQ(plain.tag, general.tag) << line;
  EXPECT_EQ(plain.root, general.root) << line;
  EXPECT_EQ(plain.line, general.line) << line;
  EXPECT_EQ(plain.kind, general.kind) << line;
  EXPECT_EQ(plain.datatype1, general.datatype1) << line;
  EXPECT_EQ(plain.datatype2, general.datatype2) << line;
  EXPECT_FALSE(plain.details) << line;
  EXPECT_FALSE(general.details) << line;
}

} // namespace

// The lines of a trace the fast path reads: each gives the general parse's action, bit for bit.
TEST(PlainActionTest, CommonLinesGiveTheGeneralParsesAction)
{
  const std::vector<std::tuple<std::string, int, int8_t>> lines = {
      {"0 isend 1 42 1000", 0, kDatatypeByte},
      {"0 isend 1 42 1000", 0, kDatatypeDouble},             // the rank's default datatype: 8000 bytes
      {"2 irecv 3 7 10 1", 2, kDatatypeByte},                // MPI_INT: 40 bytes
      {"0 send 3 0 123456789012345", 0, kDatatypeByte},      // fifteen digits: exact in a double
      {"0 recv 1 0 99999999 0", 0, kDatatypeByte},           // eight digits, the byte-by-byte field
      {"0 recv 1 999999999 123456789 55", 0, kDatatypeByte}, // the largest plain tag; MPI_UB: 0 bytes
      {"3 compute 31478287", 3, kDatatypeByte},
      {"0 compute 0", 0, kDatatypeByte},
      {"1 sleep 5", 1, kDatatypeByte},
      {"0 wait 1 2 3", 0, kDatatypeByte},
      {"0 test 0 3 999999999", 0, kDatatypeByte},
      {"0 waitall", 0, kDatatypeByte},
      {"0 waitall 12", 0, kDatatypeByte},
      {"0 finalize", 0, kDatatypeByte},
      {"0\tisend\t1 2 3\r", 0, kDatatypeByte},                      // tabs, a CR before the newline
      {"0  isend   1  2\t\t3   ", 0, kDatatypeByte},                // runs of blanks, trailing blanks
      {"0 isend 001 0000000002 000000000000010", 0, kDatatypeByte}, // leading zeros
      {"12345678 isend 1 2 3", 12345678, kDatatypeByte},            // an eight-digit rank
  };
  for (const auto& [line, rank, default_datatype] : lines) {
    const int ranks = std::max(4, rank + 1);
    const std::optional<TraceAction> plain = parse_plain(line, rank, ranks, default_datatype);
    ASSERT_TRUE(plain) << line;
    expect_same_action(*plain, parse_general(line, rank, ranks, default_datatype), line);
  }
  EXPECT_EQ(parse_plain("0 isend 1 42 1000", 0, 4, kDatatypeDouble)->amount, 8000);
  EXPECT_EQ(parse_plain("0 send 3 0 123456789012345")->amount, 123456789012345.0);
  // A last line without newline: the reader writes one after it, whatever lay there.
  EXPECT_EQ(parse_plain("0 compute 12", 0, 4, kDatatypeByte, '\0')->amount, 12);
}

// Every other line is left to the general parse, which accepts it (unusual forms) or names its error.
TEST(PlainActionTest, OtherLinesAreLeftToTheGeneralParse)
{
  for (const std::string line : {
           "",
           "   ",
           "# 0 isend 1 2 3",
           " 0 isend 1 2 3",               // leading blank
           "+0 isend 1 2 3",               // signed rank
           "00 isend 1 2 3",               // the rank with a leading zero
           "1 isend 0 2 3",                // another rank's line
           "0",                            // no action
           "0 ",                           // no action
           "0 isend 1 2",                  // too few arguments
           "0 isend 1 2 3 4 5",            // too many
           "0 finalize 1",                 // finalize takes none
           "0 isend +1 2 3",               // a sign
           "0 isend -1 2 3",               // a sign
           "0 isend 1 2 1e3",              // an exponent
           "0 isend 1 2 3.0",              // a point
           "0 compute 1.5",                // a point
           "0 isend 4 2 3",                // peer out of range
           "0 isend 1 1000000000 3",       // a tag above the plain integers
           "0 isend 1 2 1234567890123456", // sixteen digits
           "0 isend 1 2 3 60",             // unknown datatype
           "0 isend 1 2 3 0000000000060",  // unknown datatype
           "0 isend 1 2 3x",               // a letter after the digits
           "0 isend 1 2 3#",               // a comment glued to a field
           "0 isend\x01 1 2 3",            // a control character in the name
           "0 isend 1\x01 2 3",            // a control character after a field
           "0 isendx 1 2 3",               // unknown name
           "0 Isend 1 2 3",                // names are case-sensitive
           "0 init",                       // changes the default datatype
           "0 bcast 10",                   // a collective: details
           "0 allreduce 10 1",             // a name of more than 8 bytes
           "0 sendRecv 1 1 1 1",           // not a plain kind
           "0 waitall x",                  // a request count the fast path does not read
       }) {
    EXPECT_FALSE(parse_plain(line)) << line;
  }
  EXPECT_FALSE(parse_plain("123456789 isend 1 2 3", 123456789, 123456790)); // a rank of nine digits
}

// Random lines of plain-looking tokens: whatever the fast path takes, the general parse reads the same.
TEST(PlainActionTest, RandomLinesTakenGiveTheGeneralParsesAction)
{
  const std::vector<std::string> names = {"send",  "isend",   "recv",     "irecv", "wait",  "test", "compute",
                                          "sleep", "waitall", "finalize", "init",  "bcast", "sen",  "isends"};
  const std::vector<std::string> fields = {
      "0",  "1",  "3",   "4",   "007", "55", "60", "999999999", "1000000000", "123456789012345", "1234567890123456",
      "+1", "-1", "1e3", "2.5", "x"};
  const std::vector<std::string> blanks = {" ", "  ", "\t", " \r", "\v", "\f "};
  std::mt19937 random(20);
  const auto pick = [&](const std::vector<std::string>& from) { return from[random() % from.size()]; };
  int taken = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string line = (random() % 8 == 0 ? pick(fields) : std::string("1")) + pick(blanks) + pick(names);
    for (unsigned n = random() % 6; n > 0; --n)
      line += pick(blanks) + pick(fields);
    if (random() % 4 == 0)
      line += pick(blanks);
    const int8_t default_datatype = random() % 2 == 0 ? kDatatypeByte : kDatatypeDouble;
    const std::optional<TraceAction> plain = parse_plain(line, 1, 4, default_datatype, "07 \t\x01"[random() % 5]);
    if (not plain)
      continue;
    ++taken;
    expect_same_action(*plain, parse_general(line, 1, 4, default_datatype), line);
  }
  EXPECT_GT(taken, 500); // the lines the fast path is for are among them (913 with this seed)
}
