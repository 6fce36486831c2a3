// Parsing of action lines. Facts about the format (action names, argument orders, defaults) come from SimGrid 3.32
// (its replay and its trace writer); the code is ours.
#include "replay/ActionParser.hpp"

#include "common/Errors.hpp"
#include "replay/ActionSizes.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace mpisim::replay {

namespace {

// Counts above 2^53 would no longer be exact in a double.
constexpr double kLargestCount = 9007199254740992.0;

// Empties a recycled details block but keeps the capacity of its per-rank arrays.
void clear_keeping_capacity(ActionDetails& details)
{
  mpi::CollectiveCall& call = details.call;
  std::vector<double> send_counts = std::move(call.send_counts);
  std::vector<double> recv_counts = std::move(call.recv_counts);
  std::vector<double> send_displs = std::move(call.send_displs);
  std::vector<double> recv_displs = std::move(call.recv_displs);
  call = mpi::CollectiveCall{};
  send_counts.clear();
  recv_counts.clear();
  send_displs.clear();
  recv_displs.clear();
  call.send_counts = std::move(send_counts);
  call.recv_counts = std::move(recv_counts);
  call.send_displs = std::move(send_displs);
  call.recv_displs = std::move(recv_displs);
  details.file.clear();
}

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

  // Inline: the count is right on every line but bad ones.
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
      fail(std::string(what) + " " + in_quotes(args_[index]) + " is out of range [0, " + std::to_string(world_size_) +
           ")");
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

  // The record's details block, emptied once per action (its arrays keep their capacity: recycled from the previous
  // action).
  ActionDetails& details(TraceAction& out)
  {
    if (details_used_)
      return *out.details;
    details_used_ = true;
    if (not out.details)
      out.details = std::make_unique<ActionDetails>();
    clear_keeping_capacity(*out.details);
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
  throw InputError(site_.file, site_.line, std::string(action_name(spec_.kind)) + ": " + what);
}

// Out of line: the message of a wrong argument count.
[[noreturn]] void fail_argument_count(const ArgReader& args, const ActionSpec& spec, int given, int least, int most)
{
  std::string expected;
  if (most == 0)
    expected = "takes no arguments";
  else if (most == least)
    expected = "takes " + std::to_string(least) + (least == 1 ? " argument" : " arguments");
  else if (most == kNoMaximum)
    expected = "takes at least " + std::to_string(least) + " arguments";
  else
    expected = "takes " + std::to_string(least) + " to " + std::to_string(most) + " arguments";
  if (spec.min_args_per_rank > 0)
    expected += " with P = " + std::to_string(args.world_size()) + " ranks";
  if (not spec.usage.empty())
    expected += " (" + std::string(spec.usage) + ")";
  args.fail(expected + ", got " + std::to_string(given));
}

inline void ArgReader::check_argument_count() const
{
  const int given = static_cast<int>(args_.size());
  const int least = spec_.min_args + spec_.min_args_per_rank * world_size_;
  const int most = spec_.max_args == kNoMaximum ? kNoMaximum : spec_.max_args + spec_.max_args_per_rank * world_size_;
  if (given < least || (most != kNoMaximum && given > most))
    fail_argument_count(*this, spec_, given, least, most);
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
  mpi::CollectiveCall& call = args.details(out).call;
  out.amount = args.count(0, "sendcount");
  out.amount2 = args.counts(1, call.recv_counts, "recvcounts");
  out.root = args.optional_root(1 + p);
  out.datatype1 = args.datatype(2 + p, "send datatype");
  out.datatype2 = args.datatype(3 + p, "recv datatype");
}

void parse_scatterv(ArgReader& args, TraceAction& out)
{
  const size_t p = static_cast<size_t>(args.world_size());
  mpi::CollectiveCall& call = args.details(out).call;
  out.amount = args.counts(0, call.send_counts, "sendcounts");
  out.amount2 = args.count(p, "recvcount");
  out.root = args.optional_root(p + 1);
  out.datatype1 = args.datatype(p + 2, "send datatype");
  out.datatype2 = args.datatype(p + 3, "recv datatype");
}

void parse_alltoallv(ArgReader& args, TraceAction& out)
{
  const size_t p = static_cast<size_t>(args.world_size());
  mpi::CollectiveCall& call = args.details(out).call;
  out.amount = args.count(0, "sendbufsize");
  args.counts(1, call.send_counts, "sendcounts");
  out.amount2 = args.count(1 + p, "recvbufsize");
  args.counts(2 + p, call.recv_counts, "recvcounts");
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

  mpi::CollectiveCall& call = args.details(out).call;
  out.amount = args.count(0, "sendcount");
  out.amount2 = args.counts(1, call.recv_counts, "recvcounts");
  const size_t after_counts = 1 + p;
  if (displs_only) {
    set_datatype(out, args.default_datatype());
    args.integers(after_counts, call.recv_displs, "displs");
  } else {
    out.datatype1 = args.datatype(after_counts, "send datatype");
    out.datatype2 = args.datatype(after_counts + 1, "recv datatype");
    if (datatypes_and_displs)
      args.integers(after_counts + 2, call.recv_displs, "displs");
  }
}

void parse_reducescatter(ArgReader& args, TraceAction& out)
{
  const size_t p = static_cast<size_t>(args.world_size());
  mpi::CollectiveCall& call = args.details(out).call;
  out.amount = args.counts(0, call.recv_counts, "recvcounts");
  out.amount2 = args.amount(p, "flops");
  set_datatype(out, args.datatype(p + 1, "datatype"));
}

void parse_location(ArgReader& args, TraceAction& out)
{
  args.details(out).file = std::string(args.token(0));
  out.amount = args.integer(1, "line");
}

// MPI-IO actions: the file's name first.
void parse_file_name(ArgReader& args, TraceAction& out)
{
  args.details(out).file = std::string(args.token(0));
}

void parse_file_open(ArgReader& args, TraceAction& out)
{
  parse_file_name(args, out);
  const std::string_view opener = args.token(1);
  if (opener != "world" && opener != "self")
    args.fail("opener " + in_quotes(opener) + " is neither 'world' nor 'self'");
  out.tag = opener == "self" ? 1 : 0;
}

void parse_file_offset(ArgReader& args, TraceAction& out) // seek, seek_shared, set_size
{
  parse_file_name(args, out);
  out.amount = args.count(1, out.kind == ActionKind::FileSetSize ? "size" : "offset");
}

void parse_file_wait(ArgReader& args, TraceAction& out)
{
  parse_file_name(args, out);
  out.amount = args.count(1, "access number");
}

void parse_file_access(ArgReader& args, TraceAction& out) // read, write, read_all, write_all
{
  parse_file_name(args, out);
  out.amount = args.count(1, "bytes");
}

void parse_file_access_at(ArgReader& args, TraceAction& out) // read_at, write_at, read_at_all, write_at_all
{
  parse_file_name(args, out);
  out.amount2 = args.count(1, "offset");
  out.amount = args.count(2, "bytes");
}

using K = ActionKind;
// clang-format off
constexpr std::array<ActionSpec, kActionKindCount> kActions = {{
  // kind           min  /P  max        /P  usage
  {K::Init,          0,  0,  1,          0, "[anything: selects MPI_DOUBLE as default datatype]", parse_init},
  {K::Finalize,      0,  0,  0,          0, "", parse_nothing},
  {K::Compute,       1,  0,  1,          0, "flops", parse_compute},
  {K::Sleep,         1,  0,  1,          0, "seconds", parse_sleep},
  {K::Send,          3,  0,  4,          0, "dst tag count [datatype]", parse_send},
  {K::Isend,         3,  0,  4,          0, "dst tag count [datatype]", parse_send},
  {K::Recv,          3,  0,  4,          0, "src tag count [datatype]", parse_recv},
  {K::Irecv,         3,  0,  4,          0, "src tag count [datatype]", parse_recv},
  {K::SendRecv,      4,  0,  6,          0, "sendcount dst recvcount src [send_datatype] [recv_datatype]", parse_sendrecv},
  {K::Test,          3,  0,  3,          0, "src dst tag", parse_wait_or_test},
  {K::Wait,          3,  0,  3,          0, "src dst tag", parse_wait_or_test},
  {K::WaitAll,       0,  0,  1,          0, "[request_count]", parse_nothing},
  {K::Barrier,       0,  0,  0,          0, "", parse_nothing},
  {K::Bcast,         1,  0,  3,          0, "count [root] [datatype]", parse_bcast},
  {K::Reduce,        2,  0,  4,          0, "count flops [root] [datatype]", parse_reduce},
  {K::AllReduce,     2,  0,  3,          0, "count flops [datatype]", parse_reduction_without_root},
  {K::AllToAll,      2,  0,  4,          0, "sendcount recvcount [send_datatype] [recv_datatype]", parse_two_counts},
  {K::AllToAllV,     2,  2,  4,          2, "sendbufsize sendcounts[P] recvbufsize recvcounts[P] [send_datatype] [recv_datatype]", parse_alltoallv},
  {K::Gather,        2,  0,  5,          0, "sendcount recvcount [root] [send_datatype] [recv_datatype]", parse_two_counts_and_root},
  {K::GatherV,       1,  1,  4,          1, "sendcount recvcounts[P] [root] [send_datatype] [recv_datatype]", parse_gatherv},
  {K::Scatter,       2,  0,  5,          0, "sendcount recvcount [root] [send_datatype] [recv_datatype]", parse_two_counts_and_root},
  {K::ScatterV,      1,  1,  4,          1, "sendcounts[P] recvcount [root] [send_datatype] [recv_datatype]", parse_scatterv},
  {K::AllGather,     2,  0,  4,          0, "sendcount recvcount [send_datatype] [recv_datatype]", parse_two_counts},
  {K::AllGatherV,    1,  1,  3,          2, "sendcount recvcounts[P] [send_datatype recv_datatype] [displs[P]]", parse_allgatherv},
  {K::ReduceScatter, 1,  1,  2,          1, "recvcounts[P] flops [datatype]", parse_reducescatter},
  {K::Scan,          2,  0,  3,          0, "count flops [datatype]", parse_reduction_without_root},
  {K::Exscan,        2,  0,  3,          0, "count flops [datatype]", parse_reduction_without_root},
  {K::CommSize,      0,  0,  kNoMaximum, 0, "", parse_nothing},
  {K::CommSplit,     0,  0,  kNoMaximum, 0, "", parse_nothing},
  {K::CommDup,       0,  0,  kNoMaximum, 0, "", parse_nothing},
  {K::Location,      2,  0,  2,          0, "file line", parse_location},
  {K::FileOpen,      2,  0,  2,          0, "file world|self", parse_file_open},
  {K::FileClose,     1,  0,  1,          0, "file", parse_file_name},
  {K::FileSeek,      2,  0,  2,          0, "file offset", parse_file_offset},
  {K::FileSync,      1,  0,  1,          0, "file", parse_file_name},
  {K::FileSetSize,   2,  0,  2,          0, "file size", parse_file_offset},
  {K::FileRead,      2,  0,  2,          0, "file bytes", parse_file_access},
  {K::FileWrite,     2,  0,  2,          0, "file bytes", parse_file_access},
  {K::FileReadAt,    3,  0,  3,          0, "file offset bytes", parse_file_access_at},
  {K::FileWriteAt,   3,  0,  3,          0, "file offset bytes", parse_file_access_at},
  {K::FileReadAll,   2,  0,  2,          0, "file bytes", parse_file_access},
  {K::FileWriteAll,  2,  0,  2,          0, "file bytes", parse_file_access},
  {K::FileReadAtAll, 3,  0,  3,          0, "file offset bytes", parse_file_access_at},
  {K::FileWriteAtAll,3,  0,  3,          0, "file offset bytes", parse_file_access_at},
  {K::FileReadShared, 2,  0,  2,          0, "file bytes", parse_file_access},
  {K::FileWriteShared, 2,  0,  2,          0, "file bytes", parse_file_access},
  {K::FileReadOrdered, 2,  0,  2,          0, "file bytes", parse_file_access},
  {K::FileWriteOrdered, 2,  0,  2,          0, "file bytes", parse_file_access},
  {K::FileSeekShared, 2,  0,  2,          0, "file offset", parse_file_offset},
  {K::FileIReadAt,   3,  0,  3,          0, "file offset bytes", parse_file_access_at},
  {K::FileIWriteAt,  3,  0,  3,          0, "file offset bytes", parse_file_access_at},
  {K::FileIReadShared, 2,  0,  2,          0, "file bytes", parse_file_access},
  {K::FileIWriteShared, 2,  0,  2,          0, "file bytes", parse_file_access},
  {K::FileIReadAtAll, 3, 0,  3,          0, "file offset bytes", parse_file_access_at},
  {K::FileIWriteAtAll, 3, 0, 3,          0, "file offset bytes", parse_file_access_at},
  {K::FileIReadOrdered, 2, 0, 2,         0, "file bytes", parse_file_access},
  {K::FileIWriteOrdered, 2, 0, 2,        0, "file bytes", parse_file_access},
  {K::FileWait,      2,  0,  2,          0, "file access-number", parse_file_wait},
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

// The actions grouped by the length of their name, so that a look-up compares a name with the few of its length (at
// most nine) and no hash is computed: the action names of a trace are short and read once per line.
constexpr size_t kLongestActionName = 19;

struct ActionsByNameLength {
  std::array<uint8_t, kActionKindCount> kinds{};              // grouped by name length
  std::array<uint8_t, kLongestActionName + 2> group_starts{}; // group of length n: [starts[n], starts[n + 1])
};

constexpr ActionsByNameLength group_by_name_length()
{
  ActionsByNameLength groups;
  size_t next = 0;
  for (size_t length = 0; length <= kLongestActionName; ++length) {
    groups.group_starts[length] = static_cast<uint8_t>(next);
    for (size_t kind = 0; kind < kActionKindCount; ++kind)
      if (kActionNames[kind].size() == length)
        groups.kinds[next++] = static_cast<uint8_t>(kind);
  }
  groups.group_starts[kLongestActionName + 1] = static_cast<uint8_t>(next);
  return groups;
}

constexpr ActionsByNameLength kActionsByNameLength = group_by_name_length();
static_assert(kActionsByNameLength.group_starts.back() == kActionKindCount, "an action name is longer than expected");

constexpr size_t kShortestActionName = 4;
static_assert(kActionsByNameLength.group_starts[kShortestActionName] == 0, "an action name is shorter than expected");

// Whether `count` bytes (4 to 24) are the same at `a` and `b`, in loads of 4 or 8 bytes that may overlap but stay
// inside the `count` bytes: an action name against a token, without a call to memcmp.
bool same_name_bytes(const char* a, const char* b, size_t count)
{
  const auto same = [&](size_t offset, auto word) {
    decltype(word) from_a;
    decltype(word) from_b;
    std::memcpy(&from_a, a + offset, sizeof word);
    std::memcpy(&from_b, b + offset, sizeof word);
    return from_a == from_b;
  };
  if (count <= 8)
    return same(0, uint32_t{}) && same(count - 4, uint32_t{});
  if (count <= 16)
    return same(0, uint64_t{}) && same(count - 8, uint64_t{});
  return same(0, uint64_t{}) && same(8, uint64_t{}) && same(count - 8, uint64_t{});
}

const ActionSpec* find_action(std::string_view name)
{
  if (name.size() < kShortestActionName || name.size() > kLongestActionName)
    return nullptr;
  const size_t first = kActionsByNameLength.group_starts[name.size()];
  const size_t last = kActionsByNameLength.group_starts[name.size() + 1];
  for (size_t i = first; i < last; ++i) {
    const size_t kind = kActionsByNameLength.kinds[i];
    if (same_name_bytes(kActionNames[kind].data(), name.data(), name.size()))
      return &kActions[kind];
  }
  return nullptr;
}

// ------------------------------------------------------------------------------ the fast path of the common lines
// Lines with 8 readable bytes after their end (ChunkedLineReader's), read a word at a time; little-endian hosts only.

// A field of 8 or more digits, byte by byte: 1 to `max_digits` digits then a blank or the line's end.
bool read_long_plain_field(const char*& position, const char* end, size_t max_digits, uint64_t& value)
{
  const char* const start = position;
  uint64_t digits = 0;
  for (; position != end; ++position) {
    const auto digit = static_cast<unsigned>(static_cast<unsigned char>(*position) - '0');
    if (digit > 9)
      break;
    digits = digits * 10 + digit; // wraps past 19 digits, refused below
  }
  const auto count = static_cast<size_t>(position - start);
  if (count == 0 || count > max_digits || (position != end && not blank_at(position)))
    return false;
  while (position != end && blank_at(position))
    ++position;
  value = digits;
  return true;
}

// The blanks at `position`: the '\n' after the line (ChunkedLineReader's) stops the scan at its end.
const char* skip_blanks(const char* position)
{
  while (blank_at(position))
    ++position;
  return position;
}

// Whether a token stops at `after`: the line's end or a blank (the blanks after it then start at after + 1).
bool ends_token(const char* after, const char* end)
{
  return after == end || blank_at(after);
}

// A field of 1 to `max_digits` (9 or more) decimal digits at `position`, then a blank or the line's end: its value, and
// `position` past it and the blanks after it. False for any other token (a sign, a point, an exponent, a letter, too
// many digits): the general parse then reads it. The digits' value is what parse_int / parse_double give such a token.
// The line's '\n' is no digit: the digits found stop at the line's end.
bool read_plain_field(const char*& position, const char* end, size_t max_digits, uint64_t& value)
{
  const uint64_t word = detail::load_word(position);
  const uint64_t non_digits = detail::non_digit_bytes(word);
  if (non_digits == 0)
    return read_long_plain_field(position, end, max_digits, value);
  const auto count = static_cast<size_t>(std::countr_zero(non_digits) / 8);
  const char* const after = position + count;
  if (count == 0 || not ends_token(after, end))
    return false;
  value = detail::leading_digits_value(word, count);
  position = after == end ? end : skip_blanks(after + 1);
  return true;
}

// The first `length` (1 to 8) bytes of `word`, the others zero.
uint64_t first_bytes(uint64_t word, size_t length)
{
  return length == 8 ? word : word & ((uint64_t{1} << (8 * length)) - 1);
}

constexpr uint64_t name_word(ActionKind kind)
{
  uint64_t word = 0;
  const std::string_view name = action_name(kind);
  for (size_t i = 0; i < name.size() && i < 8; ++i)
    word |= static_cast<uint64_t>(static_cast<unsigned char>(name[i])) << (8 * i);
  return word;
}

// The kinds the fast path reads, found by the name's length and then its bytes compared as one word with theirs.
bool plain_kind_named(uint64_t name, size_t length, ActionKind& kind)
{
  const auto is = [&](ActionKind candidate) {
    kind = candidate;
    return name == name_word(candidate);
  };
  switch (length) {
  case 4: return is(ActionKind::Send) || is(ActionKind::Recv) || is(ActionKind::Wait) || is(ActionKind::Test);
  case 5: return is(ActionKind::Isend) || is(ActionKind::Irecv) || is(ActionKind::Sleep);
  case 7: return is(ActionKind::Compute) || is(ActionKind::WaitAll);
  case 8: return is(ActionKind::Finalize);
  default: return false;
  }
}

// The action's name at `position` (a blank or the line's end after it) among the plain kinds; `position` then past it
// and its blanks.
bool read_plain_action_name(const char*& position, const char* end, ActionKind& kind)
{
  const uint64_t word = detail::load_word(position);
  // None at or below ' ' (a blank, the line's '\n') in the word: the name has 8 bytes or more.
  const uint64_t low = detail::lowest_byte_at_most_space(word);
  const size_t length = low == 0 ? 8 : static_cast<size_t>(std::countr_zero(low) / 8);
  const char* const after = position + length;
  if (length == 0 || not ends_token(after, end) || not plain_kind_named(first_bytes(word, length), length, kind))
    return false; // no name, a control character in it, a name longer than 8 bytes, or no plain kind's
  position = after == end ? end : skip_blanks(after + 1);
  return true;
}

// The arguments of a plain line, each read as an integer (up to 999 999 999: what parse_int reads without from_chars)
// or a count (up to detail::kPlainDoubleDigits digits); at most four (send's `dst tag count datatype`).
struct PlainArguments {
  std::array<uint64_t, 4> values; // the first `count` only: not zeroed (once per line)
  size_t count = 0;

  static constexpr uint64_t kLargestPlainInt = 999'999'999;

  bool rank(size_t index, int world_size, int32_t& rank) const
  {
    rank = static_cast<int32_t>(values[index]);
    return values[index] < static_cast<uint64_t>(world_size);
  }
  bool integer(size_t index, int32_t& value) const
  {
    value = static_cast<int32_t>(values[index]);
    return values[index] <= kLargestPlainInt;
  }
  // A count or an amount: fifteen digits at most make an exact double, never negative nor above 2^53.
  double number(size_t index) const { return static_cast<double>(values[index]); }
  // The datatype at `index`, or `default_datatype` when the line stops before it.
  bool datatype(size_t index, int8_t default_datatype, int8_t& datatype) const
  {
    if (index >= count) {
      datatype = default_datatype;
      return true;
    }
    if (values[index] > kLargestPlainInt || not is_known_datatype(static_cast<int>(values[index])))
      return false;
    datatype = static_cast<int8_t>(values[index]);
    return true;
  }
};

constexpr bool plain_kinds_take_few_arguments()
{
  for (const ActionKind kind :
       {ActionKind::Send, ActionKind::Isend, ActionKind::Recv, ActionKind::Irecv, ActionKind::Wait, ActionKind::Test,
        ActionKind::Compute, ActionKind::Sleep, ActionKind::WaitAll, ActionKind::Finalize}) {
    const ActionSpec& spec = kActions[static_cast<size_t>(kind)];
    if (spec.max_args < 0 || spec.max_args > 4 || spec.min_args_per_rank != 0 || spec.max_args_per_rank != 0)
      return false;
  }
  return true;
}
static_assert(plain_kinds_take_few_arguments(), "the fast path reads at most four arguments, none per rank");

// The arguments after the action's name, as many as `spec` allows; false when one is no plain number or when there
// are too few or too many (the general parse then says which).
bool read_plain_arguments(const char* position, const char* end, const ActionSpec& spec, PlainArguments& args)
{
  const auto most = static_cast<size_t>(spec.max_args); // a plain kind has a maximum, at most values.size()
  while (position != end) {
    if (args.count == most)
      return false;
    if (not read_plain_field(position, end, detail::kPlainDoubleDigits, args.values[args.count]))
      return false;
    ++args.count;
  }
  return static_cast<int>(args.count) >= spec.min_args;
}

bool plain_point_to_point(const PlainArguments& args, bool receive, int rank, int world_size, int8_t default_datatype,
                          TraceAction& out)
{
  int32_t peer;
  int8_t datatype;
  if (not args.rank(0, world_size, peer) || not args.integer(1, out.tag) ||
      not args.datatype(3, default_datatype, datatype))
    return false;
  out.src = receive ? peer : rank;
  out.dst = receive ? rank : peer;
  out.amount = args.number(2) * static_cast<double>(known_datatype_size(datatype)); // count x size: size_action's bytes
  out.datatype1 = datatype;
  out.datatype2 = datatype;
  return true;
}

// The fields parse_action sets for `kind`, into `out` whose other fields are at TraceAction's defaults.
bool plain_action(ActionKind kind, const PlainArguments& args, int rank, int world_size, int8_t default_datatype,
                  TraceAction& out)
{
  switch (kind) {
  case ActionKind::Send:
  case ActionKind::Isend: return plain_point_to_point(args, false, rank, world_size, default_datatype, out);
  case ActionKind::Recv:
  case ActionKind::Irecv: return plain_point_to_point(args, true, rank, world_size, default_datatype, out);
  case ActionKind::Compute:
  case ActionKind::Sleep: out.amount = args.number(0); return true;
  case ActionKind::Wait:
  case ActionKind::Test:
    return args.rank(0, world_size, out.src) && args.rank(1, world_size, out.dst) && args.integer(2, out.tag);
  case ActionKind::WaitAll: // its request count is not read
  case ActionKind::Finalize: return true;
  default: return false;
  }
}

// `out` as a fresh TraceAction of `kind` (its details released): TraceAction's own defaults, so that a field added
// there is reset here too.
void reset_plain(TraceAction& out, ActionKind kind, uint32_t line_number)
{
  out = TraceAction{};
  out.line = line_number;
  out.kind = kind;
}

} // namespace

bool parse_plain_action(std::string_view rest, int rank, int world_size, int8_t default_datatype, uint32_t line_number,
                        TraceAction& out)
{
  if constexpr (std::endian::native != std::endian::little)
    return false;
  const char* position = rest.data();
  const char* const end = position + rest.size();
  ActionKind kind;
  PlainArguments args;
  if (not read_plain_action_name(position, end, kind) ||
      not read_plain_arguments(position, end, kActions[static_cast<size_t>(kind)], args))
    return false;
  reset_plain(out, kind, line_number);
  return plain_action(kind, args, rank, world_size, default_datatype, out);
}

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
  if (is_collective(spec->kind))
    args.details(out);
  spec->parse(args, out);
  if (not args.details_used())
    out.details.reset();
  size_action(out);
}

} // namespace mpisim::replay
