// Reader of SimGrid TI trace sets. Facts about the format (action names, argument orders, datatype ids, defaults) come
// from SimGrid 3.32 (src/smpi/internals/smpi_replay.cpp, src/smpi/mpi/smpi_datatype.cpp, src/xbt/xbt_replay.cpp and the
// TI writer in src/instr/instr_private.hpp); the code is ours. See TraceReader.hpp for the accepted input.
#include "replay/TraceReader.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <unordered_map>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mpisim::replay {

// ------------------------------------------------------------------------------------------------------- datatypes

namespace {

struct DatatypeInfo {
  std::string_view name;
  size_t size;
};

// SimGrid 3.32's predefined datatypes by id, sizes on x86-64 Linux. Ids are what `Datatype::decode` accepts; the
// oddities (COMPLEX32 declared with 16 bytes, INTEGER1 with 4) are SimGrid's and kept so replays match it.
constexpr int kFirstDatatypeId = -1;
constexpr std::array<DatatypeInfo, 61> kDatatypes = {{
    {"MPI_DATATYPE_NULL", 0},
    {"MPI_DOUBLE", 8},              // 0
    {"MPI_INT", 4},
    {"MPI_CHAR", 1},
    {"MPI_SHORT", 2},
    {"MPI_LONG", 8},
    {"MPI_FLOAT", 4},               // 5
    {"MPI_BYTE", 1},
    {"MPI_LONG_LONG", 8},
    {"MPI_SIGNED_CHAR", 1},
    {"MPI_UNSIGNED_CHAR", 1},
    {"MPI_UNSIGNED_SHORT", 2},      // 10
    {"MPI_UNSIGNED", 4},
    {"MPI_UNSIGNED_LONG", 8},
    {"MPI_UNSIGNED_LONG_LONG", 8},
    {"MPI_LONG_DOUBLE", 16},
    {"MPI_WCHAR", 4},               // 15
    {"MPI_C_BOOL", 1},
    {"MPI_INT8_T", 1},
    {"MPI_INT16_T", 2},
    {"MPI_INT32_T", 4},
    {"MPI_INT64_T", 8},             // 20
    {"MPI_UINT8_T", 1},
    {"MPI_UINT16_T", 2},
    {"MPI_UINT32_T", 4},
    {"MPI_UINT64_T", 8},
    {"MPI_C_FLOAT_COMPLEX", 8},     // 25
    {"MPI_C_DOUBLE_COMPLEX", 16},
    {"MPI_C_LONG_DOUBLE_COMPLEX", 32},
    {"MPI_AINT", 8},
    {"MPI_OFFSET", 8},
    {"MPI_FLOAT_INT", 8},           // 30
    {"MPI_LONG_INT", 16},
    {"MPI_DOUBLE_INT", 16},
    {"MPI_SHORT_INT", 8},
    {"MPI_2INT", 8},
    {"MPI_2FLOAT", 8},              // 35
    {"MPI_2DOUBLE", 16},
    {"MPI_2LONG", 16},
    {"MPI_REAL", 4},
    {"MPI_REAL4", 4},
    {"MPI_REAL8", 8},               // 40
    {"MPI_REAL16", 16},
    {"MPI_COMPLEX8", 8},
    {"MPI_COMPLEX16", 16},
    {"MPI_COMPLEX32", 16},
    {"MPI_INTEGER1", 4},            // 45
    {"MPI_INTEGER2", 2},
    {"MPI_INTEGER4", 4},
    {"MPI_INTEGER8", 8},
    {"MPI_INTEGER16", 16},
    {"MPI_LONG_DOUBLE_INT", 32},    // 50
    {"MPI_CXX_BOOL", 1},
    {"MPI_CXX_FLOAT_COMPLEX", 8},
    {"MPI_CXX_DOUBLE_COMPLEX", 16},
    {"MPI_CXX_LONG_DOUBLE_COMPLEX", 32},
    {"MPI_UB", 0},                  // 55
    {"MPI_LB", 0},
    {"MPI_PACKED", 1},
    {"MPI_PTR", 8},
    {"MPI_COUNT", 8},
}};
constexpr int kLastDatatypeId = kFirstDatatypeId + static_cast<int>(kDatatypes.size()) - 1;
static_assert(kDatatypes[kDatatypeDouble - kFirstDatatypeId].name == "MPI_DOUBLE");
static_assert(kDatatypes[kDatatypeByte - kFirstDatatypeId].name == "MPI_BYTE");

const DatatypeInfo& known_datatype(int id)
{
  if (not is_known_datatype(id))
    throw InputError("unknown TI datatype id " + std::to_string(id) + " (known ids: " +
                     std::to_string(kFirstDatatypeId) + " to " + std::to_string(kLastDatatypeId) + ")");
  return kDatatypes[static_cast<size_t>(id - kFirstDatatypeId)];
}

} // namespace

bool is_known_datatype(int ti_datatype_id)
{
  return ti_datatype_id >= kFirstDatatypeId && ti_datatype_id <= kLastDatatypeId;
}

size_t datatype_size(int ti_datatype_id)
{
  return known_datatype(ti_datatype_id).size;
}

std::string_view datatype_name(int ti_datatype_id)
{
  return known_datatype(ti_datatype_id).name;
}

// ----------------------------------------------------------------------------------------------- numbers and lines

namespace {

// Counts above 2^53 would no longer be exact in a double.
constexpr double kLargestCount = 9007199254740992.0;

// Strict parses: the whole token must be the number (no `12x`), an optional leading '+' is allowed as strtod does.
bool strip_plus(std::string_view& text)
{
  if (not text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    return not text.empty() && text.front() != '-';
  }
  return not text.empty();
}

bool parse_int(std::string_view text, int& value)
{
  if (not strip_plus(text))
    return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

bool parse_double(std::string_view text, double& value)
{
  if (not strip_plus(text))
    return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

constexpr bool is_blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view text)
{
  while (not text.empty() && is_blank(text.front()))
    text.remove_prefix(1);
  while (not text.empty() && is_blank(text.back()))
    text.remove_suffix(1);
  return text;
}

// Splits a line into blank-separated tokens (runs of blanks count as one). False for a blank line or a comment.
bool split_line(std::string_view line, std::vector<std::string_view>& tokens)
{
  tokens.clear();
  line = trim(line);
  if (line.empty() || line.front() == '#')
    return false;
  size_t position = 0;
  while (position < line.size()) {
    size_t start = position;
    while (position < line.size() && not is_blank(line[position]))
      ++position;
    tokens.push_back(line.substr(start, position - start));
    while (position < line.size() && is_blank(line[position]))
      ++position;
  }
  return true;
}

// One scratch token list per thread: a v-collective line on 16 384 ranks has 32 000 tokens, and keeping such a list in
// every rank's stream would cost gigabytes.
std::vector<std::string_view>& scratch_tokens()
{
  static thread_local std::vector<std::string_view> tokens;
  return tokens;
}

std::string in_quotes(std::string_view text)
{
  return "'" + std::string(text) + "'";
}

// Reads a file line by line through a buffer refilled with pread() at a saved offset. The file is opened for each
// refill and closed right after, so no descriptor stays open between calls: thousands of readers can coexist under the
// default limit of open files. A final line without newline is returned like any other.
class ChunkedLineReader {
public:
  ChunkedLineReader(std::string path, size_t chunk_size) : path_(std::move(path)), chunk_size_(chunk_size) {}

  // The next line without its '\n'; valid until the next call. False at end of file.
  bool next_line(std::string_view& line)
  {
    for (;;) {
      const char* first = buffer_.data() + begin_;
      const size_t available = end_ - begin_;
      if (available > 0) {
        if (const auto* newline = static_cast<const char*>(std::memchr(first, '\n', available))) {
          line = std::string_view(first, static_cast<size_t>(newline - first));
          begin_ += line.size() + 1;
          ++line_number_;
          return true;
        }
      }
      if (at_end_of_file_) {
        if (available == 0) {
          std::vector<char>().swap(buffer_); // done with this file: give the memory back
          begin_ = end_ = 0;
          return false;
        }
        line = std::string_view(first, available);
        begin_ = end_;
        ++line_number_;
        return true;
      }
      refill();
    }
  }

  uint32_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }

private:
  void refill()
  {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      throw InputError(path_, 0, std::string("cannot open: ") + std::strerror(errno));
    struct stat status {};
    const uint64_t remaining = ::fstat(fd, &status) == 0 && static_cast<uint64_t>(status.st_size) > file_offset_
                                   ? static_cast<uint64_t>(status.st_size) - file_offset_
                                   : 0;
    make_room(remaining);
    ssize_t got;
    do
      got = ::pread(fd, buffer_.data() + end_, buffer_.size() - end_, static_cast<off_t>(file_offset_));
    while (got < 0 && errno == EINTR);
    const int read_error = errno;
    ::close(fd);
    if (got < 0)
      throw InputError(path_, 0, std::string("cannot read: ") + std::strerror(read_error));
    if (got == 0)
      at_end_of_file_ = true;
    end_ += static_cast<size_t>(got);
    file_offset_ += static_cast<uint64_t>(got);
  }

  // Moves the unread tail (an incomplete line) to the front, then sizes the buffer: allocated on first use no larger
  // than what is left of the file (small rank files of a large job cost little), doubled when one line fills it, and
  // given back once a long line (a v-collective on many ranks) has been consumed.
  void make_room(uint64_t remaining_in_file)
  {
    const size_t pending = end_ - begin_;
    if (pending > 0 && begin_ > 0)
      std::memmove(buffer_.data(), buffer_.data() + begin_, pending);
    begin_ = 0;
    end_ = pending;
    const size_t wanted = static_cast<size_t>(std::min<uint64_t>(chunk_size_, pending + remaining_in_file + 1));
    if (buffer_.size() < wanted) {
      buffer_.resize(wanted);
    } else if (pending == buffer_.size()) {
      buffer_.resize(2 * buffer_.size());
    } else if (buffer_.size() > 2 * chunk_size_ && pending <= chunk_size_ / 2) {
      std::vector<char> smaller(chunk_size_);
      std::copy_n(buffer_.begin(), pending, smaller.begin());
      buffer_.swap(smaller);
    }
  }

  std::string path_;
  size_t chunk_size_;
  uint64_t file_offset_ = 0;
  std::vector<char> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  bool at_end_of_file_ = false;
  uint32_t line_number_ = 0;
};

// -------------------------------------------------------------------------------------------------- action table

struct LineSite {
  const std::string& file;
  uint32_t line;
};

struct ActionSpec;

// Typed access to the arguments of one action line (the tokens after `<rank> <action>`), each accessor validating
// its value and naming it in the error.
class ArgReader {
public:
  ArgReader(const ActionSpec& spec, std::span<const std::string_view> args, const LineSite& site, int own_rank,
            int world_size, int8_t& default_datatype)
      : spec_(spec), args_(args), site_(site), own_rank_(own_rank), world_size_(world_size),
        default_datatype_(default_datatype)
  {
  }

  size_t size() const { return args_.size(); }
  int world_size() const { return world_size_; }
  int own_rank() const { return own_rank_; }
  int8_t& default_datatype() { return default_datatype_; }
  std::string_view token(size_t index) const { return args_[index]; }

  void check_argument_count() const;

  // A count as SimGrid reads it: any number syntax, truncated towards zero, not negative.
  double count(size_t index, std::string_view what) const
  {
    double value = count_or_probe(index, what);
    if (value < 0)
      fail(std::string(what) + " " + in_quotes(args_[index]) + " is negative");
    return value;
  }

  // A receive size: negative means "probe for the size first" in SimGrid.
  double count_or_probe(size_t index, std::string_view what) const
  {
    double value = std::trunc(number(index, what)) + 0.0; // + 0.0 turns -0 into 0
    if (std::fabs(value) > kLargestCount)
      fail(std::string(what) + " " + in_quotes(args_[index]) + " is too large");
    return value;
  }

  // Flops or seconds, kept as written.
  double amount(size_t index, std::string_view what) const
  {
    double value = number(index, what);
    if (value < 0)
      fail(std::string(what) + " " + in_quotes(args_[index]) + " is negative");
    return value;
  }

  int32_t integer(size_t index, std::string_view what) const
  {
    int value;
    if (not parse_int(args_[index], value))
      fail(std::string(what) + " " + in_quotes(args_[index]) + " is not an integer");
    return value;
  }

  int32_t rank(size_t index, std::string_view what) const
  {
    int32_t value = integer(index, what);
    if (value < 0 || value >= world_size_)
      fail(std::string(what) + " " + in_quotes(args_[index]) + " is out of range [0, " + std::to_string(world_size_) + ")");
    return value;
  }

  int32_t optional_root(size_t index) const { return index < args_.size() ? rank(index, "root") : 0; }

  // An explicit datatype id, or the rank's default when the argument is absent.
  int8_t datatype(size_t index, std::string_view what) const
  {
    if (index >= args_.size())
      return default_datatype_;
    int id;
    if (not parse_int(args_[index], id) || not is_known_datatype(id))
      fail(std::string(what) + " " + in_quotes(args_[index]) + " is not a TI datatype id (" +
           std::to_string(kFirstDatatypeId) + " to " + std::to_string(kLastDatatypeId) + ")");
    return static_cast<int8_t>(id);
  }

  // The P counts starting at `first`, into `out`; returns their sum.
  double counts(size_t first, std::vector<double>& out, std::string_view what) const
  {
    out.resize(static_cast<size_t>(world_size_));
    double sum = 0;
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = count(first + i, element_name(what, i));
      sum += out[i];
    }
    return sum;
  }

  // Any integers (displacements may be negative), P of them starting at `first`.
  void integers(size_t first, std::vector<double>& out, std::string_view what) const
  {
    out.resize(static_cast<size_t>(world_size_));
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = integer(first + i, element_name(what, i));
  }

  // The record's details block, emptied (its buffers are recycled from the previous action).
  ActionDetails& details(TraceAction& out)
  {
    details_used_ = true;
    if (not out.details)
      out.details = std::make_unique<ActionDetails>();
    out.details->counts.clear();
    out.details->counts2.clear();
    out.details->displs.clear();
    out.details->file.clear();
    return *out.details;
  }
  bool details_used() const { return details_used_; }

  [[noreturn]] void fail(const std::string& what) const;

private:
  double number(size_t index, std::string_view what) const
  {
    double value;
    if (not parse_double(args_[index], value))
      fail(std::string(what) + " " + in_quotes(args_[index]) + " is not a number");
    return value;
  }

  static std::string element_name(std::string_view array, size_t index)
  {
    return std::string(array) + "[" + std::to_string(index) + "]";
  }

  const ActionSpec& spec_;
  std::span<const std::string_view> args_;
  const LineSite& site_;
  int own_rank_;
  int world_size_;
  int8_t& default_datatype_;
  bool details_used_ = false;
};

using ParseFunction = void (*)(ArgReader&, TraceAction&);

constexpr int kNoMaximum = -1;

// One row per action: how many arguments it takes (a fixed part plus, for the v-collectives, a multiple of P) and how
// to read them. `usage` is quoted in argument-count errors.
struct ActionSpec {
  std::string_view name;
  ActionKind kind;
  int min_args;
  int min_args_per_rank;
  int max_args; // kNoMaximum: any number
  int max_args_per_rank;
  std::string_view usage;
  ParseFunction parse;
};

void ArgReader::fail(const std::string& what) const
{
  throw InputError(site_.file, site_.line, std::string(spec_.name) + ": " + what);
}

void ArgReader::check_argument_count() const
{
  const int given = static_cast<int>(args_.size());
  const int least = spec_.min_args + spec_.min_args_per_rank * world_size_;
  const int most = spec_.max_args == kNoMaximum ? kNoMaximum : spec_.max_args + spec_.max_args_per_rank * world_size_;
  if (given >= least && (most == kNoMaximum || given <= most))
    return;
  std::string expected;
  if (most == 0)
    expected = "takes no arguments";
  else if (most == least)
    expected = "takes " + std::to_string(least) + (least == 1 ? " argument" : " arguments");
  else if (most == kNoMaximum)
    expected = "takes at least " + std::to_string(least) + " arguments";
  else
    expected = "takes " + std::to_string(least) + " to " + std::to_string(most) + " arguments";
  if (spec_.min_args_per_rank > 0)
    expected += " with P = " + std::to_string(world_size_) + " ranks";
  if (not spec_.usage.empty())
    expected += " (" + std::string(spec_.usage) + ")";
  fail(expected + ", got " + std::to_string(given));
}

void set_datatype(TraceAction& out, int8_t datatype)
{
  out.datatype1 = datatype;
  out.datatype2 = datatype;
}

void parse_nothing(ArgReader&, TraceAction&) {}

void parse_init(ArgReader& args, TraceAction& out)
{
  // SimGrid: a bare `init` is the TAU convention (sizes in bytes), `init <anything>` the MPE one (MPI_DOUBLE).
  args.default_datatype() = args.size() > 0 ? kDatatypeDouble : kDatatypeByte;
  set_datatype(out, args.default_datatype());
}

void parse_compute(ArgReader& args, TraceAction& out)
{
  out.amount = args.amount(0, "flops");
}

void parse_sleep(ArgReader& args, TraceAction& out)
{
  out.amount = args.amount(0, "seconds");
}

void parse_send(ArgReader& args, TraceAction& out)
{
  out.src = args.own_rank();
  out.dst = args.rank(0, "dst");
  out.tag = args.integer(1, "tag");
  out.amount = args.count(2, "count");
  set_datatype(out, args.datatype(3, "datatype"));
}

void parse_recv(ArgReader& args, TraceAction& out)
{
  out.src = args.rank(0, "src");
  out.dst = args.own_rank();
  out.tag = args.integer(1, "tag");
  out.amount = args.count_or_probe(2, "count");
  set_datatype(out, args.datatype(3, "datatype"));
}

void parse_sendrecv(ArgReader& args, TraceAction& out)
{
  out.amount = args.count(0, "sendcount");
  out.dst = args.rank(1, "dst");
  out.amount2 = args.count(2, "recvcount");
  out.src = args.rank(3, "src");
  out.datatype1 = args.datatype(4, "send datatype");
  out.datatype2 = args.datatype(5, "recv datatype");
}

void parse_wait_or_test(ArgReader& args, TraceAction& out)
{
  out.src = args.rank(0, "src");
  out.dst = args.rank(1, "dst");
  out.tag = args.integer(2, "tag");
}

void parse_bcast(ArgReader& args, TraceAction& out)
{
  out.amount = args.count(0, "count");
  out.root = args.optional_root(1);
  set_datatype(out, args.datatype(2, "datatype"));
}

void parse_reduce(ArgReader& args, TraceAction& out)
{
  out.amount = args.count(0, "count");
  out.amount2 = args.amount(1, "flops");
  out.root = args.optional_root(2);
  set_datatype(out, args.datatype(3, "datatype"));
}

void parse_reduction_without_root(ArgReader& args, TraceAction& out) // allreduce, scan, exscan
{
  out.amount = args.count(0, "count");
  out.amount2 = args.amount(1, "flops");
  set_datatype(out, args.datatype(2, "datatype"));
}

void parse_two_counts(ArgReader& args, TraceAction& out) // alltoall, allgather
{
  out.amount = args.count(0, "sendcount");
  out.amount2 = args.count(1, "recvcount");
  out.datatype1 = args.datatype(2, "send datatype");
  out.datatype2 = args.datatype(3, "recv datatype");
}

void parse_two_counts_and_root(ArgReader& args, TraceAction& out) // gather, scatter
{
  out.amount = args.count(0, "sendcount");
  out.amount2 = args.count(1, "recvcount");
  out.root = args.optional_root(2);
  out.datatype1 = args.datatype(3, "send datatype");
  out.datatype2 = args.datatype(4, "recv datatype");
}

void parse_gatherv(ArgReader& args, TraceAction& out)
{
  const size_t p = static_cast<size_t>(args.world_size());
  ActionDetails& details = args.details(out);
  out.amount = args.count(0, "sendcount");
  out.amount2 = args.counts(1, details.counts, "recvcounts");
  out.root = args.optional_root(1 + p);
  out.datatype1 = args.datatype(2 + p, "send datatype");
  out.datatype2 = args.datatype(3 + p, "recv datatype");
}

void parse_scatterv(ArgReader& args, TraceAction& out)
{
  const size_t p = static_cast<size_t>(args.world_size());
  ActionDetails& details = args.details(out);
  out.amount = args.counts(0, details.counts, "sendcounts");
  out.amount2 = args.count(p, "recvcount");
  out.root = args.optional_root(p + 1);
  out.datatype1 = args.datatype(p + 2, "send datatype");
  out.datatype2 = args.datatype(p + 3, "recv datatype");
}

void parse_alltoallv(ArgReader& args, TraceAction& out)
{
  const size_t p = static_cast<size_t>(args.world_size());
  ActionDetails& details = args.details(out);
  out.amount = args.count(0, "sendbufsize");
  args.counts(1, details.counts, "sendcounts");
  out.amount2 = args.count(1 + p, "recvbufsize");
  args.counts(2 + p, details.counts2, "recvcounts");
  out.datatype1 = args.datatype(2 + 2 * p, "send datatype");
  out.datatype2 = args.datatype(3 + 2 * p, "recv datatype");
}

// allgatherv is the odd one: `sendcount recvcounts[P]`, then either up to two datatypes, or P displacements, or two
// datatypes and P displacements. When P <= 2 the argument counts overlap and, as in SimGrid, datatypes win.
void parse_allgatherv(ArgReader& args, TraceAction& out)
{
  const size_t p = static_cast<size_t>(args.world_size());
  const size_t given = args.size();
  const bool datatypes_only = given <= 3 + p;
  const bool displs_only = not datatypes_only && given == 1 + 2 * p;
  const bool datatypes_and_displs = given == 3 + 2 * p;
  if (not datatypes_only && not displs_only && not datatypes_and_displs)
    args.fail("takes " + std::to_string(1 + p) + " to " + std::to_string(3 + p) + ", " + std::to_string(1 + 2 * p) +
              " or " + std::to_string(3 + 2 * p) + " arguments with P = " + std::to_string(p) +
              " ranks (sendcount recvcounts[P] [send_datatype recv_datatype] [displs[P]]), got " +
              std::to_string(given));

  ActionDetails& details = args.details(out);
  out.amount = args.count(0, "sendcount");
  out.amount2 = args.counts(1, details.counts, "recvcounts");
  const size_t after_counts = 1 + p;
  if (displs_only) {
    set_datatype(out, args.default_datatype());
    args.integers(after_counts, details.displs, "displs");
  } else {
    out.datatype1 = args.datatype(after_counts, "send datatype");
    out.datatype2 = args.datatype(after_counts + 1, "recv datatype");
    if (datatypes_and_displs)
      args.integers(after_counts + 2, details.displs, "displs");
  }
}

void parse_reducescatter(ArgReader& args, TraceAction& out)
{
  const size_t p = static_cast<size_t>(args.world_size());
  ActionDetails& details = args.details(out);
  out.amount = args.counts(0, details.counts, "recvcounts");
  out.amount2 = args.amount(p, "flops");
  set_datatype(out, args.datatype(p + 1, "datatype"));
}

void parse_location(ArgReader& args, TraceAction& out)
{
  args.details(out).file = std::string(args.token(0));
  out.amount = args.integer(1, "line");
}

using K = ActionKind;
// clang-format off
constexpr std::array<ActionSpec, kActionKindCount> kActions = {{
  // name           kind             min  /P  max        /P  usage
  {"init",          K::Init,          0,  0,  1,          0, "[anything: selects MPI_DOUBLE as default datatype]", parse_init},
  {"finalize",      K::Finalize,      0,  0,  0,          0, "", parse_nothing},
  {"compute",       K::Compute,       1,  0,  1,          0, "flops", parse_compute},
  {"sleep",         K::Sleep,         1,  0,  1,          0, "seconds", parse_sleep},
  {"send",          K::Send,          3,  0,  4,          0, "dst tag count [datatype]", parse_send},
  {"isend",         K::Isend,         3,  0,  4,          0, "dst tag count [datatype]", parse_send},
  {"recv",          K::Recv,          3,  0,  4,          0, "src tag count [datatype]", parse_recv},
  {"irecv",         K::Irecv,         3,  0,  4,          0, "src tag count [datatype]", parse_recv},
  {"sendRecv",      K::SendRecv,      4,  0,  6,          0, "sendcount dst recvcount src [send_datatype] [recv_datatype]", parse_sendrecv},
  {"test",          K::Test,          3,  0,  3,          0, "src dst tag", parse_wait_or_test},
  {"wait",          K::Wait,          3,  0,  3,          0, "src dst tag", parse_wait_or_test},
  {"waitall",       K::WaitAll,       0,  0,  1,          0, "[request_count]", parse_nothing},
  {"barrier",       K::Barrier,       0,  0,  0,          0, "", parse_nothing},
  {"bcast",         K::Bcast,         1,  0,  3,          0, "count [root] [datatype]", parse_bcast},
  {"reduce",        K::Reduce,        2,  0,  4,          0, "count flops [root] [datatype]", parse_reduce},
  {"allreduce",     K::AllReduce,     2,  0,  3,          0, "count flops [datatype]", parse_reduction_without_root},
  {"alltoall",      K::AllToAll,      2,  0,  4,          0, "sendcount recvcount [send_datatype] [recv_datatype]", parse_two_counts},
  {"alltoallv",     K::AllToAllV,     2,  2,  4,          2, "sendbufsize sendcounts[P] recvbufsize recvcounts[P] [send_datatype] [recv_datatype]", parse_alltoallv},
  {"gather",        K::Gather,        2,  0,  5,          0, "sendcount recvcount [root] [send_datatype] [recv_datatype]", parse_two_counts_and_root},
  {"gatherv",       K::GatherV,       1,  1,  4,          1, "sendcount recvcounts[P] [root] [send_datatype] [recv_datatype]", parse_gatherv},
  {"scatter",       K::Scatter,       2,  0,  5,          0, "sendcount recvcount [root] [send_datatype] [recv_datatype]", parse_two_counts_and_root},
  {"scatterv",      K::ScatterV,      1,  1,  4,          1, "sendcounts[P] recvcount [root] [send_datatype] [recv_datatype]", parse_scatterv},
  {"allgather",     K::AllGather,     2,  0,  4,          0, "sendcount recvcount [send_datatype] [recv_datatype]", parse_two_counts},
  {"allgatherv",    K::AllGatherV,    1,  1,  3,          2, "sendcount recvcounts[P] [send_datatype recv_datatype] [displs[P]]", parse_allgatherv},
  {"reducescatter", K::ReduceScatter, 1,  1,  2,          1, "recvcounts[P] flops [datatype]", parse_reducescatter},
  {"scan",          K::Scan,          2,  0,  3,          0, "count flops [datatype]", parse_reduction_without_root},
  {"exscan",        K::Exscan,        2,  0,  3,          0, "count flops [datatype]", parse_reduction_without_root},
  {"comm_size",     K::CommSize,      0,  0,  kNoMaximum, 0, "", parse_nothing},
  {"comm_split",    K::CommSplit,     0,  0,  kNoMaximum, 0, "", parse_nothing},
  {"comm_dup",      K::CommDup,       0,  0,  kNoMaximum, 0, "", parse_nothing},
  {"location",      K::Location,      2,  0,  2,          0, "file line", parse_location},
}};
// clang-format on

constexpr bool table_follows_kind_order()
{
  for (size_t i = 0; i < kActions.size(); ++i)
    if (static_cast<size_t>(kActions[i].kind) != i)
      return false;
  return true;
}
static_assert(table_follows_kind_order(), "kActions must list the actions in ActionKind order");

const ActionSpec* find_action(std::string_view name)
{
  static const auto by_name = [] {
    std::unordered_map<std::string_view, const ActionSpec*> map;
    for (const ActionSpec& spec : kActions)
      map.emplace(spec.name, &spec);
    return map;
  }();
  auto found = by_name.find(name);
  return found == by_name.end() ? nullptr : found->second;
}

// ------------------------------------------------------------------------------------------------- line parsing

int parse_rank_field(std::string_view token, const LineSite& site)
{
  int rank;
  if (not parse_int(token, rank) || rank < 0)
    throw InputError(site.file, site.line, "rank field " + in_quotes(token) + " is not a rank number");
  return rank;
}

// Parses the split line `tokens` (tokens[0], the rank field, already checked by the caller) into `out`, recycling
// out's details block.
void parse_action(std::span<const std::string_view> tokens, int rank, int world_size, int8_t& default_datatype,
                  const LineSite& site, TraceAction& out)
{
  if (tokens.size() < 2)
    throw InputError(site.file, site.line, "missing action name after the rank field");
  const ActionSpec* spec = find_action(tokens[1]);
  if (spec == nullptr)
    throw InputError(site.file, site.line, "unknown action " + in_quotes(tokens[1]));

  ArgReader args(*spec, tokens.subspan(2), site, rank, world_size, default_datatype);
  args.check_argument_count();
  std::unique_ptr<ActionDetails> recycled = std::move(out.details);
  out = TraceAction{};
  out.details = std::move(recycled);
  out.kind = spec->kind;
  out.line = site.line;
  spec->parse(args, out);
  if (not args.details_used())
    out.details.reset();
}

} // namespace

std::string_view action_name(ActionKind kind)
{
  return kActions.at(static_cast<size_t>(kind)).name;
}

// ------------------------------------------------------------------------------------------------------ sources

namespace detail {

class RankSource {
public:
  virtual ~RankSource() = default;
  virtual bool next(TraceAction& out) = 0;
};

} // namespace detail

namespace {

// The actions of one rank from its own file; every line must carry that rank.
class RankFileSource final : public detail::RankSource {
public:
  RankFileSource(std::string path, size_t chunk_size, int rank, int world_size)
      : reader_(std::move(path), chunk_size), rank_(rank), world_size_(world_size)
  {
  }

  bool next(TraceAction& out) override
  {
    std::vector<std::string_view>& tokens = scratch_tokens();
    std::string_view line;
    while (reader_.next_line(line)) {
      if (not split_line(line, tokens))
        continue;
      const LineSite site{reader_.path(), reader_.line_number()};
      const int line_rank = parse_rank_field(tokens[0], site);
      if (line_rank != rank_)
        throw InputError(site.file, site.line,
                         "rank field " + in_quotes(tokens[0]) + " but this file holds the trace of rank " +
                             std::to_string(rank_));
      parse_action(tokens, rank_, world_size_, default_datatype_, site, out);
      return true;
    }
    return false;
  }

private:
  ChunkedLineReader reader_;
  int rank_;
  int world_size_;
  int8_t default_datatype_ = kDatatypeByte;
};

// Reads a shared trace once, in order, and deals its actions to per-rank queues, parsed as soon as read (so errors come
// in file order and each rank's default datatype follows its own `init`).
class SharedTraceDemux {
public:
  SharedTraceDemux(std::string path, size_t chunk_size, int world_size)
      : reader_(std::move(path), chunk_size), world_size_(world_size),
        pending_(static_cast<size_t>(world_size)), default_datatypes_(static_cast<size_t>(world_size), kDatatypeByte)
  {
  }

  bool next(int rank, TraceAction& out)
  {
    std::deque<TraceAction>& mine = pending_[static_cast<size_t>(rank)];
    if (not mine.empty()) {
      out = std::move(mine.front());
      mine.pop_front();
      return true;
    }
    std::vector<std::string_view>& tokens = scratch_tokens();
    std::string_view line;
    while (reader_.next_line(line)) {
      if (not split_line(line, tokens))
        continue;
      const LineSite site{reader_.path(), reader_.line_number()};
      const int line_rank = parse_rank_field(tokens[0], site);
      if (line_rank >= world_size_)
        throw InputError(site.file, site.line,
                         "rank field " + in_quotes(tokens[0]) + " is out of range [0, " + std::to_string(world_size_) +
                             ")");
      const auto slot = static_cast<size_t>(line_rank);
      if (line_rank == rank) {
        parse_action(tokens, line_rank, world_size_, default_datatypes_[slot], site, out);
        return true;
      }
      TraceAction action;
      parse_action(tokens, line_rank, world_size_, default_datatypes_[slot], site, action);
      pending_[slot].push_back(std::move(action));
    }
    return false;
  }

private:
  ChunkedLineReader reader_;
  int world_size_;
  std::vector<std::deque<TraceAction>> pending_;
  std::vector<int8_t> default_datatypes_;
};

class SharedRankSource final : public detail::RankSource {
public:
  SharedRankSource(std::shared_ptr<SharedTraceDemux> demux, int rank) : demux_(std::move(demux)), rank_(rank) {}
  bool next(TraceAction& out) override { return demux_->next(rank_, out); }

private:
  std::shared_ptr<SharedTraceDemux> demux_;
  int rank_;
};

} // namespace

// ---------------------------------------------------------------------------------------------------- RankStream

RankStream::RankStream(int rank, std::unique_ptr<detail::RankSource> source) : rank_(rank), source_(std::move(source))
{
}
RankStream::RankStream(RankStream&&) noexcept = default;
RankStream& RankStream::operator=(RankStream&&) noexcept = default;
RankStream::~RankStream() = default;

bool RankStream::next(TraceAction& out)
{
  return source_->next(out);
}

// ------------------------------------------------------------------------------------------------------ TraceSet

namespace detail {

struct TraceSetState {
  TraceSet::Layout layout;
  int world_size;
  std::vector<std::string> files; // one per rank, or the shared file alone
  size_t chunk_size;
  std::vector<bool> stream_taken;
  std::shared_ptr<SharedTraceDemux> demux; // created with the first stream of a shared trace
};

} // namespace detail

namespace {

constexpr size_t kKiB = 1024;
constexpr size_t kIndexChunk = 64 * kKiB;
constexpr size_t kSharedChunk = 1024 * kKiB;
// Read buffers of all per-rank streams together stay under this budget, within [kMinRankChunk, kMaxRankChunk] each.
constexpr size_t kRankBufferBudget = 4 * 1024 * kKiB; // small: replay memory must stay below SMPI's
constexpr size_t kMinRankChunk = 4 * kKiB;
constexpr size_t kMaxRankChunk = 64 * kKiB;
// Guards the rank-count scan against a typo such as `1000000000 send ...` allocating a queue per rank.
constexpr int kMostRanks = 1 << 24;

struct IndexEntry {
  std::string listed_path;
  uint32_t line;
};

// SimGrid resolves index entries from the current directory only; we look next to the index first so that an index
// can be used from anywhere, and fall back to the current directory for indexes written for SimGrid's rule.
std::string resolve_trace_path(const IndexEntry& entry, const std::string& index_path, const std::string& role)
{
  namespace fs = std::filesystem;
  const fs::path listed(entry.listed_path);
  std::error_code ignored;
  if (listed.is_relative()) {
    const fs::path index_folder = fs::path(index_path).parent_path();
    if (not index_folder.empty()) {
      const fs::path beside_index = index_folder / listed;
      if (fs::is_regular_file(beside_index, ignored))
        return beside_index.string();
    }
  }
  if (fs::is_regular_file(listed, ignored))
    return listed.string();
  throw InputError(index_path, entry.line,
                   role + " " + in_quotes(entry.listed_path) +
                       (listed.is_relative() ? " not found (looked next to the index and in the current directory)"
                                             : " not found"));
}

bool is_action_line(std::span<const std::string_view> tokens)
{
  int rank;
  return tokens.size() >= 2 && parse_int(tokens[0], rank) && std::isalpha(static_cast<unsigned char>(tokens[1][0]));
}

// One more than the largest rank field of a shared trace; reads only the first token of each line.
int scan_world_size(const std::string& file)
{
  ChunkedLineReader reader(file, kSharedChunk);
  std::string_view line;
  int largest = -1;
  while (reader.next_line(line)) {
    line = trim(line);
    if (line.empty() || line.front() == '#')
      continue;
    const size_t end = std::min(line.find(' '), line.find('\t'));
    const LineSite site{reader.path(), reader.line_number()};
    const int rank = parse_rank_field(line.substr(0, end), site);
    if (rank >= kMostRanks)
      throw InputError(site.file, site.line,
                       "rank field " + std::to_string(rank) + " is beyond the " + std::to_string(kMostRanks) +
                           " ranks supported");
    largest = std::max(largest, rank);
  }
  if (largest < 0)
    throw InputError(file, 0, "shared trace holds no action line: cannot tell the number of ranks");
  return largest + 1;
}

std::shared_ptr<detail::TraceSetState> shared_trace_state(std::string file, int np)
{
  auto state = std::make_shared<detail::TraceSetState>();
  state->layout = TraceSet::Layout::SharedFile;
  state->world_size = np == -1 ? scan_world_size(file) : np;
  state->files.push_back(std::move(file));
  state->chunk_size = kSharedChunk;
  return state;
}

std::shared_ptr<detail::TraceSetState> per_rank_state(const std::vector<IndexEntry>& entries,
                                                      const std::string& index_path, int np)
{
  const int listed = static_cast<int>(entries.size());
  if (np > listed)
    throw InputError(index_path, 0,
                     "cannot replay " + std::to_string(np) + " ranks: the index lists " + std::to_string(listed) +
                         " trace files");
  auto state = std::make_shared<detail::TraceSetState>();
  state->layout = TraceSet::Layout::PerRankFiles;
  state->world_size = np == -1 ? listed : np;
  state->files.reserve(static_cast<size_t>(state->world_size));
  for (int rank = 0; rank < state->world_size; ++rank)
    state->files.push_back(
        resolve_trace_path(entries[static_cast<size_t>(rank)], index_path, "trace file of rank " + std::to_string(rank)));
  state->chunk_size =
      std::clamp(kRankBufferBudget / static_cast<size_t>(state->world_size), kMinRankChunk, kMaxRankChunk);
  return state;
}

} // namespace

TraceSet::TraceSet(std::shared_ptr<detail::TraceSetState> state) : state_(std::move(state))
{
  state_->stream_taken.assign(static_cast<size_t>(state_->world_size), false);
}

TraceSet TraceSet::open(const std::string& path, int np)
{
  if (np == 0 || np < -1 || np > kMostRanks)
    throw InputError("invalid number of ranks " + std::to_string(np) + " (expected -1, meaning all, or 1 to " +
                     std::to_string(kMostRanks) + ")");

  ChunkedLineReader reader(path, kIndexChunk);
  std::vector<IndexEntry> entries;
  std::vector<std::string_view>& tokens = scratch_tokens();
  std::string_view line;
  while (reader.next_line(line)) {
    if (not split_line(line, tokens))
      continue;
    if (entries.empty() && is_action_line(tokens))
      return TraceSet(shared_trace_state(path, np)); // given a trace file, not an index
    entries.push_back({std::string(trim(line)), reader.line_number()});
  }
  if (entries.empty())
    throw InputError(path, 0, "empty trace index: it lists no trace file");
  if (entries.size() == 1)
    return TraceSet(shared_trace_state(resolve_trace_path(entries.front(), path, "shared trace file"), np));
  return TraceSet(per_rank_state(entries, path, np));
}

int TraceSet::size() const
{
  return state_->world_size;
}

TraceSet::Layout TraceSet::layout() const
{
  return state_->layout;
}

const std::string& TraceSet::trace_file(int rank) const
{
  if (rank < 0 || rank >= state_->world_size)
    throw std::out_of_range("rank " + std::to_string(rank) + " is not in this trace set");
  return state_->layout == Layout::SharedFile ? state_->files.front() : state_->files[static_cast<size_t>(rank)];
}

RankStream TraceSet::stream(int rank)
{
  if (rank < 0 || rank >= state_->world_size)
    throw std::out_of_range("rank " + std::to_string(rank) + " is not in this trace set of " +
                            std::to_string(state_->world_size) + " ranks");
  if (state_->stream_taken[static_cast<size_t>(rank)])
    throw std::logic_error("the stream of rank " + std::to_string(rank) + " was already taken");
  state_->stream_taken[static_cast<size_t>(rank)] = true;

  if (state_->layout == Layout::PerRankFiles)
    return RankStream(rank, std::make_unique<RankFileSource>(state_->files[static_cast<size_t>(rank)],
                                                             state_->chunk_size, rank, state_->world_size));
  if (not state_->demux)
    state_->demux = std::make_shared<SharedTraceDemux>(state_->files.front(), state_->chunk_size, state_->world_size);
  return RankStream(rank, std::make_unique<SharedRankSource>(state_->demux, rank));
}

} // namespace mpisim::replay
