// Tests of the TI trace reader: every action's fields, the default-datatype rule, the three ways to give a trace set,
// every input error with its exact message and line, and streaming many ranks under a small open-file limit.
#include "replay/TraceReader.hpp"

#include "common/Errors.hpp"

#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace mpisim::replay;
using mpisim::InputError;

namespace {

// A fresh folder per test, removed afterwards.
class TraceReaderTest : public ::testing::Test {
protected:
  void SetUp() override
  {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("mpisim-trace-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(dir_);
  }
  void TearDown() override
  {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  std::string write(const std::string& name, const std::string& content) const
  {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
  }

  // Every action of `rank`, read from a set opened on `path`.
  static std::vector<TraceAction> read_rank(TraceSet& set, int rank)
  {
    std::vector<TraceAction> actions;
    RankStream stream = set.stream(rank);
    TraceAction action;
    while (stream.next(action))
      actions.push_back(std::move(action));
    return actions;
  }

  // The actions of rank 0 written as a per-rank set of `np` ranks whose other ranks have empty files.
  std::vector<TraceAction> parse_rank0(const std::string& lines, int np = 4)
  {
    std::string index;
    for (int rank = 0; rank < np; ++rank)
      index += write(std::string("r") + std::to_string(rank) + ".txt", rank == 0 ? lines : "") + "\n";
    TraceSet set = TraceSet::open(write("index.txt", index));
    return read_rank(set, 0);
  }

  // The what() of the InputError raised while opening and reading rank 0 of such a set.
  std::string error_of(const std::string& lines, int np = 4)
  {
    try {
      parse_rank0(lines, np);
    } catch (const InputError& error) {
      return error.what();
    }
    return "no error";
  }

  std::string rank0_file() const { return (dir_ / "r0.txt").string(); }

  fs::path dir_;
};

// The largest resident memory of this process so far, in KiB.
long peak_resident_kib()
{
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// The per-rank byte array of a v-collective's call that holds the trace's one array (send counts for scatterv).
std::vector<double> call_counts(const TraceAction& action)
{
  if (not action.details)
    return {};
  const mpisim::mpi::CollectiveCall& call = action.details->call;
  return action.kind == ActionKind::ScatterV ? call.send_counts : call.recv_counts;
}

// The verified excerpt of a SimGrid 3.32 TI writer output (rank 0 of 4, bare init: byte default, explicit datatypes),
// followed by the actions the excerpt does not show.
const char* const kEveryAction = "0 init\n"
                                 "0 compute 1.27061e+07\n"
                                 "0 send 1 42 1000 0\n"
                                 "0 irecv 3 7 10 1\n"
                                 "0 send 1 7 10 1\n"
                                 "0 wait 3 0 7\n"
                                 "0 bcast 100 0 0\n"
                                 "0 allreduce 100 0 0\n"
                                 "0 reduce 50 0 2 1\n"
                                 "0 alltoall 16 16 0 0\n"
                                 "0 allgather 8 8 0 0\n"
                                 "0 gather 4 4 0 1 1\n"
                                 "0 scatter 4 4 0 1 1\n"
                                 "0 gatherv 1 1 2 3 4 0 0 0\n"
                                 "0 allgatherv 1 1 2 3 4 0 0\n"
                                 "0 scatterv 1 2 3 4 1 0 0 0\n"
                                 "0 alltoallv 10 1 2 3 4 10 1 2 3 4 0 0\n"
                                 "0 reducescatter 5 5 5 5 0 0\n"
                                 "0 scan 10 0 0\n"
                                 "0 sendRecv 3 1 3 3 0 0\n"
                                 "0 barrier\n"
                                 "0 finalize\n"
                                 "0 sleep 0.5\n"
                                 "0 isend 2 3 500000\n"
                                 "0 recv 3 0 -1 5\n"
                                 "0 test 0 2 3\n"
                                 "0 waitall 2\n"
                                 "0 exscan 10 5e3 1\n"
                                 "0 comm_size 4\n"
                                 "0 comm_split 0 1\n"
                                 "0 comm_dup\n"
                                 "0 location foo.c 42\n";

} // namespace

// --------------------------------------------------------------------------------------------------- datatypes

TEST(TraceDatatypeTest, SizesFollowSimGridTable)
{
  EXPECT_EQ(datatype_size(0), 8u);   // MPI_DOUBLE
  EXPECT_EQ(datatype_size(1), 4u);   // MPI_INT
  EXPECT_EQ(datatype_size(6), 1u);   // MPI_BYTE
  EXPECT_EQ(datatype_size(14), 16u); // MPI_LONG_DOUBLE
  EXPECT_EQ(datatype_size(27), 32u); // MPI_C_LONG_DOUBLE_COMPLEX
  EXPECT_EQ(datatype_size(43), 16u); // MPI_COMPLEX16
  EXPECT_EQ(datatype_size(44), 16u); // MPI_COMPLEX32: SimGrid declares it with 16 bytes
  EXPECT_EQ(datatype_size(50), 32u); // MPI_LONG_DOUBLE_INT
  EXPECT_EQ(datatype_size(59), 8u);  // MPI_COUNT
  EXPECT_EQ(datatype_size(-1), 0u);  // MPI_DATATYPE_NULL
  EXPECT_EQ(datatype_name(kDatatypeDouble), "MPI_DOUBLE");
  EXPECT_EQ(datatype_name(kDatatypeByte), "MPI_BYTE");
  EXPECT_EQ(datatype_name(23), "MPI_UINT32_T");
}

TEST(TraceDatatypeTest, UnknownIdIsInputError)
{
  try {
    datatype_size(60);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "unknown TI datatype id 60 (known ids: -1 to 59)");
  }
  EXPECT_THROW(datatype_size(-2), InputError);
  EXPECT_FALSE(is_known_datatype(60));
  EXPECT_TRUE(is_known_datatype(-1));
}

TEST(TraceActionTest, RecordIsCompact)
{
  EXPECT_LE(sizeof(TraceAction), 48u);
  EXPECT_EQ(action_name(ActionKind::SendRecv), "sendRecv");
  EXPECT_EQ(action_name(ActionKind::AllGatherV), "allgatherv");
}

// ----------------------------------------------------------------------------------------------- every action

TEST_F(TraceReaderTest, EveryActionKindParsesIntoItsFields)
{
  const std::vector<TraceAction> a = parse_rank0(kEveryAction);
  ASSERT_EQ(a.size(), 32u);
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(a[i].line, i + 1);

  EXPECT_EQ(a[0].kind, ActionKind::Init);
  EXPECT_EQ(a[0].datatype1, kDatatypeByte);

  EXPECT_EQ(a[1].kind, ActionKind::Compute);
  EXPECT_DOUBLE_EQ(a[1].amount, 1.27061e+07);

  EXPECT_EQ(a[2].kind, ActionKind::Send); // send 1 42 1000 0
  EXPECT_EQ(a[2].src, 0);
  EXPECT_EQ(a[2].dst, 1);
  EXPECT_EQ(a[2].tag, 42);
  EXPECT_EQ(a[2].amount, 8000); // 1000 MPI_DOUBLE
  EXPECT_EQ(a[2].datatype1, 0);
  EXPECT_EQ(a[2].datatype2, 0);
  EXPECT_FALSE(a[2].details);

  EXPECT_EQ(a[3].kind, ActionKind::Irecv); // irecv 3 7 10 1
  EXPECT_EQ(a[3].src, 3);
  EXPECT_EQ(a[3].dst, 0);
  EXPECT_EQ(a[3].tag, 7);
  EXPECT_EQ(a[3].amount, 40); // 10 MPI_INT
  EXPECT_EQ(a[3].datatype1, 1);

  EXPECT_EQ(a[5].kind, ActionKind::Wait); // wait 3 0 7
  EXPECT_EQ(a[5].src, 3);
  EXPECT_EQ(a[5].dst, 0);
  EXPECT_EQ(a[5].tag, 7);

  EXPECT_EQ(a[6].kind, ActionKind::Bcast); // bcast 100 0 0
  EXPECT_EQ(a[6].amount, 800);
  EXPECT_EQ(a[6].root, 0);
  EXPECT_EQ(a[6].datatype1, 0);
  EXPECT_EQ(a[6].details->call.op, mpisim::mpi::Collective::Bcast);
  EXPECT_EQ(a[6].details->call.bytes, 800);

  EXPECT_EQ(a[7].kind, ActionKind::AllReduce); // allreduce 100 0 0
  EXPECT_EQ(a[7].amount, 800);
  EXPECT_EQ(a[7].amount2, 0);
  EXPECT_EQ(a[7].datatype1, 0);

  EXPECT_EQ(a[8].kind, ActionKind::Reduce); // reduce 50 0 2 1
  EXPECT_EQ(a[8].amount, 200);
  EXPECT_EQ(a[8].amount2, 0);
  EXPECT_EQ(a[8].root, 2);
  EXPECT_EQ(a[8].datatype1, 1);

  EXPECT_EQ(a[9].kind, ActionKind::AllToAll); // alltoall 16 16 0 0
  EXPECT_EQ(a[9].amount, 128);
  EXPECT_EQ(a[9].amount2, 128);
  EXPECT_EQ(a[9].datatype1, 0);
  EXPECT_EQ(a[9].datatype2, 0);

  EXPECT_EQ(a[10].kind, ActionKind::AllGather); // allgather 8 8 0 0
  EXPECT_EQ(a[10].amount, 64);
  EXPECT_EQ(a[10].amount2, 64);

  EXPECT_EQ(a[11].kind, ActionKind::Gather); // gather 4 4 0 1 1
  EXPECT_EQ(a[11].amount, 16);
  EXPECT_EQ(a[11].amount2, 16);
  EXPECT_EQ(a[11].root, 0);
  EXPECT_EQ(a[11].datatype1, 1);
  EXPECT_EQ(a[11].datatype2, 1);

  EXPECT_EQ(a[12].kind, ActionKind::Scatter); // scatter 4 4 0 1 1
  EXPECT_EQ(a[12].root, 0);
  EXPECT_EQ(a[12].datatype2, 1);

  EXPECT_EQ(a[13].kind, ActionKind::GatherV); // gatherv 1 1 2 3 4 0 0 0
  EXPECT_EQ(a[13].amount, 8);
  EXPECT_EQ(call_counts(a[13]), (std::vector<double>{8, 16, 24, 32}));
  EXPECT_EQ(a[13].amount2, 80);
  EXPECT_EQ(a[13].root, 0);
  EXPECT_EQ(a[13].datatype1, 0);
  EXPECT_EQ(a[13].datatype2, 0);

  EXPECT_EQ(a[14].kind, ActionKind::AllGatherV); // allgatherv 1 1 2 3 4 0 0
  EXPECT_EQ(a[14].amount, 8);
  EXPECT_EQ(call_counts(a[14]), (std::vector<double>{8, 16, 24, 32}));
  EXPECT_EQ(a[14].details->call.recv_displs, (std::vector<double>{0, 0, 0, 0})); // none given: zeros

  EXPECT_EQ(a[15].kind, ActionKind::ScatterV); // scatterv 1 2 3 4 1 0 0 0
  EXPECT_EQ(call_counts(a[15]), (std::vector<double>{8, 16, 24, 32}));
  EXPECT_EQ(a[15].amount, 80);
  EXPECT_EQ(a[15].amount2, 8);
  EXPECT_EQ(a[15].root, 0);

  EXPECT_EQ(a[16].kind, ActionKind::AllToAllV); // alltoallv 10 1 2 3 4 10 1 2 3 4 0 0
  EXPECT_EQ(a[16].amount, 80);
  EXPECT_EQ(a[16].amount2, 80);
  EXPECT_EQ(a[16].details->call.send_counts, (std::vector<double>{8, 16, 24, 32}));
  EXPECT_EQ(a[16].details->call.recv_counts, (std::vector<double>{8, 16, 24, 32}));

  EXPECT_EQ(a[17].kind, ActionKind::ReduceScatter); // reducescatter 5 5 5 5 0 0
  EXPECT_EQ(call_counts(a[17]), (std::vector<double>{40, 40, 40, 40}));
  EXPECT_EQ(a[17].amount, 160);
  EXPECT_EQ(a[17].amount2, 0);
  EXPECT_EQ(a[17].datatype1, 0);

  EXPECT_EQ(a[18].kind, ActionKind::Scan); // scan 10 0 0
  EXPECT_EQ(a[18].amount, 80);

  EXPECT_EQ(a[19].kind, ActionKind::SendRecv); // sendRecv 3 1 3 3 0 0
  EXPECT_EQ(a[19].amount, 24);
  EXPECT_EQ(a[19].dst, 1);
  EXPECT_EQ(a[19].amount2, 24);
  EXPECT_EQ(a[19].src, 3);
  EXPECT_EQ(a[19].tag, 0);
  EXPECT_EQ(a[19].datatype1, 0);
  EXPECT_EQ(a[19].datatype2, 0);

  EXPECT_EQ(a[20].kind, ActionKind::Barrier);
  EXPECT_EQ(a[21].kind, ActionKind::Finalize);

  EXPECT_EQ(a[22].kind, ActionKind::Sleep);
  EXPECT_EQ(a[22].amount, 0.5);

  EXPECT_EQ(a[23].kind, ActionKind::Isend); // isend 2 3 500000: byte default
  EXPECT_EQ(a[23].dst, 2);
  EXPECT_EQ(a[23].tag, 3);
  EXPECT_EQ(a[23].amount, 500000); // MPI_BYTE
  EXPECT_EQ(a[23].datatype1, kDatatypeByte);

  EXPECT_EQ(a[24].kind, ActionKind::Recv); // recv 3 0 -1 5: negative size = probe first
  EXPECT_EQ(a[24].src, 3);
  EXPECT_EQ(a[24].amount, -1); // a probe keeps its count
  EXPECT_EQ(a[24].datatype1, 5);

  EXPECT_EQ(a[25].kind, ActionKind::Test);
  EXPECT_EQ(a[25].src, 0);
  EXPECT_EQ(a[25].dst, 2);
  EXPECT_EQ(a[25].tag, 3);

  EXPECT_EQ(a[26].kind, ActionKind::WaitAll);
  EXPECT_EQ(a[27].kind, ActionKind::Exscan);
  EXPECT_EQ(a[27].amount2, 5000);
  EXPECT_EQ(a[27].datatype1, 1);
  EXPECT_EQ(a[28].kind, ActionKind::CommSize);
  EXPECT_EQ(a[29].kind, ActionKind::CommSplit);
  EXPECT_EQ(a[30].kind, ActionKind::CommDup);

  EXPECT_EQ(a[31].kind, ActionKind::Location);
  EXPECT_EQ(a[31].details->file, "foo.c");
  EXPECT_EQ(a[31].amount, 42);
}

TEST_F(TraceReaderTest, AllGatherVDisplacementsAndDatatypes)
{
  const auto a = parse_rank0("0 allgatherv 1 1 2 3 4 5 0 0 1 2 3\n" // datatypes and displacements
                             "0 allgatherv 1 1 2 3 4 0 -1 2 3\n"    // displacements alone (default datatype)
                             "0 allgatherv 1 1 2 3 4 5\n"           // send datatype only
                             "0 allgatherv 1 1 2 3 4\n");
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0].datatype1, 5);
  EXPECT_EQ(a[0].datatype2, 0);
  EXPECT_EQ(a[0].details->call.recv_displs, (std::vector<double>{0, 8, 16, 24})); // MPI_DOUBLE
  EXPECT_EQ(a[1].datatype1, kDatatypeByte);
  EXPECT_EQ(a[1].details->call.recv_displs, (std::vector<double>{0, -1, 2, 3})); // MPI_BYTE
  EXPECT_EQ(a[2].datatype1, 5);
  EXPECT_EQ(a[2].datatype2, kDatatypeByte);
  EXPECT_EQ(a[2].details->call.recv_displs, (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(a[3].details->call.recv_displs, (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(a[3].amount2, 10);
}

TEST_F(TraceReaderTest, CountsAcceptAnyNumberSyntaxAndAreTruncated)
{
  const auto a = parse_rank0("0 send 1 0 1e6\n"
                             "0 send 1 0 2.7\n"
                             "0 recv 1 0 -0.5\n"
                             "0 gatherv 1 1e3 2.9 +3 4\n"
                             "0 compute 2.5e9\n");
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[0].amount, 1e6);
  EXPECT_EQ(a[1].amount, 2);
  EXPECT_EQ(a[2].amount, 0); // truncated to 0: a real receive of 0 elements, not a probe
  EXPECT_EQ(a[3].details->call.recv_counts, (std::vector<double>{1000, 2, 3, 4})); // MPI_BYTE
  EXPECT_EQ(a[4].amount, 2.5e9);                                                   // flops are not truncated
}

TEST_F(TraceReaderTest, BlankLinesCommentsAndTrailingBlanksAreSkipped)
{
  const auto a = parse_rank0("# a comment\n"
                             "\n"
                             "   \t \n"
                             "  0   bcast\t1 0 1 \r\n"
                             "0 barrier");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].kind, ActionKind::Bcast);
  EXPECT_EQ(a[0].line, 4u);
  EXPECT_EQ(a[0].datatype1, 1);
  EXPECT_EQ(a[1].line, 5u);
}

TEST_F(TraceReaderTest, LastLineWithoutNewlineIsRead)
{
  const auto a = parse_rank0("0 init\n0 sleep 3");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[1].kind, ActionKind::Sleep);
  EXPECT_EQ(a[1].amount, 3);
}

// --------------------------------------------------------------------------------------------- default datatype

TEST_F(TraceReaderTest, DefaultDatatypeFollowsInit)
{
  const auto bare = parse_rank0("0 send 1 0 8\n" // before any init: MPI_BYTE
                                "0 init\n"
                                "0 send 1 0 8\n"
                                "0 init 1\n"
                                "0 send 1 0 8\n"
                                "0 send 1 0 8 2\n" // explicit datatype wins
                                "0 gather 1 1 0 3\n"
                                "0 alltoall 1 1\n");
  ASSERT_EQ(bare.size(), 8u);
  EXPECT_EQ(bare[0].datatype1, kDatatypeByte);
  EXPECT_EQ(bare[1].datatype1, kDatatypeByte);
  EXPECT_EQ(bare[2].datatype1, kDatatypeByte);
  EXPECT_EQ(bare[3].datatype1, kDatatypeDouble);
  EXPECT_EQ(bare[4].datatype1, kDatatypeDouble);
  EXPECT_EQ(bare[5].datatype1, 2);
  EXPECT_EQ(bare[6].datatype1, 3);
  EXPECT_EQ(bare[6].datatype2, kDatatypeDouble);
  EXPECT_EQ(bare[7].datatype1, kDatatypeDouble);
  EXPECT_EQ(bare[7].datatype2, kDatatypeDouble);
}

TEST_F(TraceReaderTest, DefaultDatatypeIsPerRankInASharedTrace)
{
  const std::string shared = write("shared.txt", "0 init\n1 init mpe\n0 send 1 0 8\n1 recv 0 0 8\n");
  TraceSet set = TraceSet::open(shared);
  const auto rank1 = read_rank(set, 1);
  const auto rank0 = read_rank(set, 0);
  ASSERT_EQ(rank0.size(), 2u);
  ASSERT_EQ(rank1.size(), 2u);
  EXPECT_EQ(rank0[1].datatype1, kDatatypeByte);
  EXPECT_EQ(rank1[1].datatype1, kDatatypeDouble);
}

// ----------------------------------------------------------------------------------------------- trace layouts

TEST_F(TraceReaderTest, IndexPathsResolveNextToTheIndexFirst)
{
  write("set/ti/rank0.txt", "0 init\n0 send 1 0 10\n");
  write("set/ti/rank1.txt", "1 init\n1 recv 0 0 10\n");
  const std::string index = write("set/index.txt", "ti/rank0.txt\n\n# comment\nti/rank1.txt\n");
  TraceSet set = TraceSet::open(index);
  EXPECT_EQ(set.size(), 2);
  EXPECT_EQ(set.layout(), TraceSet::Layout::PerRankFiles);
  EXPECT_EQ(set.trace_file(1), (dir_ / "set/ti/rank1.txt").string());
  EXPECT_EQ(read_rank(set, 1).back().kind, ActionKind::Recv);

  TraceSet first_only = TraceSet::open(index, 1);
  EXPECT_EQ(first_only.size(), 1);
}

TEST_F(TraceReaderTest, IndexPathsFallBackToTheCurrentDirectory)
{
  write("cwd/ti/rank0.txt", "0 init\n");
  write("cwd/ti/rank1.txt", "1 init\n");
  const std::string index = write("elsewhere/index.txt", "ti/rank0.txt\nti/rank1.txt\n");
  const fs::path saved = fs::current_path();
  fs::current_path(dir_ / "cwd");
  try {
    TraceSet set = TraceSet::open(index);
    EXPECT_EQ(set.trace_file(0), "ti/rank0.txt");
    EXPECT_EQ(read_rank(set, 0).size(), 1u);
  } catch (...) {
    fs::current_path(saved);
    throw;
  }
  fs::current_path(saved);
}

TEST_F(TraceReaderTest, OneLineIndexMeansSharedTrace)
{
  write("all.txt", "0 init\n1 init\n2 init\n1 send 2 5 100\n0 compute 10\n2 recv 1 5 100\n0 finalize\n");
  TraceSet set = TraceSet::open(write("index.txt", "all.txt\n"));
  EXPECT_EQ(set.layout(), TraceSet::Layout::SharedFile);
  EXPECT_EQ(set.size(), 3); // found by scanning the rank fields
  EXPECT_EQ(set.trace_file(2), (dir_ / "all.txt").string());

  // Streams read in any order get their own actions in trace order.
  const auto rank2 = read_rank(set, 2);
  const auto rank0 = read_rank(set, 0);
  const auto rank1 = read_rank(set, 1);
  ASSERT_EQ(rank2.size(), 2u);
  EXPECT_EQ(rank2[1].kind, ActionKind::Recv);
  EXPECT_EQ(rank2[1].src, 1);
  EXPECT_EQ(rank2[1].line, 6u);
  ASSERT_EQ(rank0.size(), 3u);
  EXPECT_EQ(rank0[1].kind, ActionKind::Compute);
  EXPECT_EQ(rank0[2].kind, ActionKind::Finalize);
  ASSERT_EQ(rank1.size(), 2u);
  EXPECT_EQ(rank1[1].dst, 2);

  EXPECT_EQ(TraceSet::open(write("index2.txt", "all.txt"), 5).size(), 5); // explicit np: no scan
}

TEST_F(TraceReaderTest, InterleavedStreamingOfASharedTrace)
{
  std::string lines;
  for (int step = 0; step < 100; ++step)
    for (int rank = 0; rank < 4; ++rank)
      lines += std::to_string(rank) + " compute " + std::to_string(step) + "\n";
  TraceSet set = TraceSet::open(write("all.txt", lines), 4);
  std::vector<RankStream> streams;
  for (int rank = 0; rank < 4; ++rank)
    streams.push_back(set.stream(rank));
  TraceAction action;
  for (int step = 0; step < 100; ++step)
    for (int rank = 3; rank >= 0; --rank) {
      ASSERT_TRUE(streams[static_cast<size_t>(rank)].next(action));
      EXPECT_EQ(action.amount, step);
      EXPECT_EQ(action.line, static_cast<uint32_t>(4 * step + rank + 1));
    }
  for (auto& stream : streams)
    EXPECT_FALSE(stream.next(action));
}

// Found by the fuzz harness (tests/fuzz/regressions/trace_set/): a shared trace naming rank 3458580 gave the reader
// a queue per rank up front, an empty std::deque of about 600 bytes each: 2 GiB before the first action. Queues are
// made on first use now, so the largest world the reader accepts (2^24 ranks) costs a pointer per rank.
TEST_F(TraceReaderTest, SharedTraceOfMillionsOfRanksCostsNoQueuePerRank)
{
  const int last = (1 << 24) - 1;
  const std::string lines = "0 compute 1\n" + std::to_string(last) + " compute 2\n0 compute 3\n";
  TraceSet set = TraceSet::open(write("all.txt", lines));
  ASSERT_EQ(set.size(), last + 1);
  const long peak_before = peak_resident_kib();
  const auto first = read_rank(set, 0); // reads the whole file, holding the last rank's action for it
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[1].amount, 3);
  const auto others = read_rank(set, last);
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(others[0].amount, 2);
  // 2^24 pointers and default datatypes: 144 MiB; a deque per rank: over 9 GiB.
  EXPECT_LT(peak_resident_kib() - peak_before, 512 * 1024);
}

TEST_F(TraceReaderTest, TraceFileGivenDirectly)
{
  const std::string file = write("ti/rank0.txt", "# recorded by hand\n0 init\n0 compute 5\n0 finalize");
  TraceSet set = TraceSet::open(file);
  EXPECT_EQ(set.layout(), TraceSet::Layout::SharedFile);
  EXPECT_EQ(set.size(), 1);
  const auto actions = read_rank(set, 0);
  ASSERT_EQ(actions.size(), 3u);
  EXPECT_EQ(actions[1].amount, 5);
}

TEST_F(TraceReaderTest, StreamCanBeTakenOnce)
{
  TraceSet set = TraceSet::open(write("all.txt", "0 init\n"));
  RankStream stream = set.stream(0);
  EXPECT_THROW(set.stream(0), std::logic_error);
  EXPECT_THROW(set.stream(1), std::out_of_range);
}

TEST_F(TraceReaderTest, StreamsOutliveTheirSet)
{
  std::optional<RankStream> stream;
  {
    TraceSet set = TraceSet::open(write("all.txt", "0 init\n1 init\n0 barrier\n"));
    stream.emplace(set.stream(0));
  }
  TraceAction action;
  ASSERT_TRUE(stream->next(action));
  ASSERT_TRUE(stream->next(action));
  EXPECT_EQ(action.kind, ActionKind::Barrier);
  EXPECT_FALSE(stream->next(action));
}

// ---------------------------------------------------------------------------------------------------- errors

TEST_F(TraceReaderTest, ActionErrorsNameTheValueAndLine)
{
  const std::string f = rank0_file() + ":";
  EXPECT_EQ(error_of("0 init\n0 foo 1 2\n"), f + "2: unknown action 'foo'");
  EXPECT_EQ(error_of("0 Send 1 0 1\n"), f + "1: unknown action 'Send'");
  EXPECT_EQ(error_of("0\n"), f + "1: missing action name after the rank field");
  EXPECT_EQ(error_of("0 send 1 0\n"), f + "1: send: takes 3 to 4 arguments (dst tag count [datatype]), got 2");
  EXPECT_EQ(error_of("0 send 1 0 1 0 0\n"), f + "1: send: takes 3 to 4 arguments (dst tag count [datatype]), got 5");
  EXPECT_EQ(error_of("0 barrier 1\n"), f + "1: barrier: takes no arguments, got 1");
  EXPECT_EQ(error_of("0 compute 1 2\n"), f + "1: compute: takes 1 argument (flops), got 2");
  EXPECT_EQ(error_of("0 wait 1 0\n"), f + "1: wait: takes 3 arguments (src dst tag), got 2");
  EXPECT_EQ(error_of("0 gatherv 1 2 3\n"),
            f + "1: gatherv: takes 5 to 8 arguments with P = 4 ranks (sendcount recvcounts[P] [root] "
                "[send_datatype] [recv_datatype]), got 3");
  EXPECT_EQ(error_of("0 alltoallv 10 1 2 3 4 10 1 2 3\n"),
            f + "1: alltoallv: takes 10 to 12 arguments with P = 4 ranks (sendbufsize sendcounts[P] recvbufsize "
                "recvcounts[P] [send_datatype] [recv_datatype]), got 9");
  EXPECT_EQ(error_of("0 allgatherv 1 1 2 3 4 0 0 1\n"),
            f + "1: allgatherv: takes 5 to 7, 9 or 11 arguments with P = 4 ranks (sendcount recvcounts[P] "
                "[send_datatype recv_datatype] [displs[P]]), got 8");
}

TEST_F(TraceReaderTest, NumberErrors)
{
  const std::string f = rank0_file() + ":1: ";
  EXPECT_EQ(error_of("0 send 1 0 12x\n"), f + "send: count '12x' is not a number");
  EXPECT_EQ(error_of("0 send 1 x 12\n"), f + "send: tag 'x' is not an integer");
  EXPECT_EQ(error_of("0 send 1.0 0 12\n"), f + "send: dst '1.0' is not an integer");
  EXPECT_EQ(error_of("0 compute nan\n"), f + "compute: flops 'nan' is not a number");
  EXPECT_EQ(error_of("0 compute 1e400\n"), f + "compute: flops '1e400' is not a number");
  EXPECT_EQ(error_of("0 send 1 0 -5\n"), f + "send: count '-5' is negative");
  EXPECT_EQ(error_of("0 sleep -1\n"), f + "sleep: seconds '-1' is negative");
  EXPECT_EQ(error_of("0 reduce 1 -3\n"), f + "reduce: flops '-3' is negative");
  EXPECT_EQ(error_of("0 bcast 1e300\n"), f + "bcast: count '1e300' is too large");
  EXPECT_EQ(error_of("0 gatherv 1 1 2 -3 4\n"), f + "gatherv: recvcounts[2] '-3' is negative");
  EXPECT_EQ(error_of("0 alltoallv 10 1 2 3 4 10 1 2 3 4y\n"), f + "alltoallv: recvcounts[3] '4y' is not a number");
  EXPECT_EQ(error_of("0 send 1 0 12 60\n"), f + "send: datatype '60' is not a TI datatype id (-1 to 59)");
  EXPECT_EQ(error_of("0 sendRecv 1 1 1 1 0 x\n"), f + "sendRecv: recv datatype 'x' is not a TI datatype id (-1 to 59)");
  EXPECT_EQ(error_of("x send 1 0 12\n"), f + "rank field 'x' is not a rank number");
}

TEST_F(TraceReaderTest, RankErrors)
{
  const std::string f = rank0_file() + ":";
  EXPECT_EQ(error_of("0 init\n1 send 0 0 12\n"), f + "2: rank field '1' but this file holds the trace of rank 0");
  EXPECT_EQ(error_of("0 send 4 0 12\n"), f + "1: send: dst '4' is out of range [0, 4)");
  EXPECT_EQ(error_of("0 irecv -1 0 12\n"), f + "1: irecv: src '-1' is out of range [0, 4)");
  EXPECT_EQ(error_of("0 bcast 1 7\n"), f + "1: bcast: root '7' is out of range [0, 4)");
  EXPECT_EQ(error_of("0 gatherv 1 1 2 3 4 4\n"), f + "1: gatherv: root '4' is out of range [0, 4)");
  EXPECT_EQ(error_of("0 wait 0 9 1\n"), f + "1: wait: dst '9' is out of range [0, 4)");
  EXPECT_EQ(error_of("0 sendRecv 1 1 1 5\n"), f + "1: sendRecv: src '5' is out of range [0, 4)");

  const std::string shared = write("shared.txt", "0 init\n1 init\n2 init\n");
  TraceSet set = TraceSet::open(shared, 2);
  RankStream stream = set.stream(0);
  TraceAction action;
  try {
    while (stream.next(action)) {
    }
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()), shared + ":3: rank field '2' is out of range [0, 2)");
  }
}

TEST_F(TraceReaderTest, TraceSetErrors)
{
  const auto open_error = [](const std::string& path, int np = -1) -> std::string {
    try {
      TraceSet::open(path, np);
    } catch (const InputError& error) {
      return error.what();
    }
    return "no error";
  };
  const std::string missing = (dir_ / "nothing.txt").string();
  EXPECT_EQ(open_error(missing), missing + ": cannot open: No such file or directory");

  const std::string empty = write("empty.txt", "\n# only a comment\n\n");
  EXPECT_EQ(open_error(empty), empty + ": empty trace index: it lists no trace file");

  write("r0.txt", "0 init\n");
  const std::string index = write("index.txt", "r0.txt\nmissing.txt\n");
  EXPECT_EQ(open_error(index),
            index + ":2: trace file of rank 1 'missing.txt' not found (looked next to the index and in the current "
                    "directory)");
  EXPECT_EQ(open_error(index, 1), "no error"); // only the first rank is needed
  EXPECT_EQ(open_error(index, 3), index + ": cannot replay 3 ranks: the index lists 2 trace files");
  EXPECT_EQ(open_error(index, 0), "invalid number of ranks 0 (expected -1, meaning all, or 1 to 16777216)");

  const std::string one_line = write("one.txt", "/nowhere/shared.txt\n");
  EXPECT_EQ(open_error(one_line), one_line + ":1: shared trace file '/nowhere/shared.txt' not found");

  const std::string bad_scan = write("scan.txt", "0 init\n# c\nbad init\n");
  EXPECT_EQ(open_error(bad_scan), bad_scan + ":3: rank field 'bad' is not a rank number");
  const std::string comments_only = write("comments.txt", "# nothing\n\n");
  EXPECT_EQ(open_error(write("index1.txt", "comments.txt\n")),
            comments_only + ": shared trace holds no action line: cannot tell the number of ranks");
}

// An index of many files is checked by listing its folder once (FolderListing): every path resolves as a stat()
// each resolved it, through a symbolic link, a subfolder or the current directory too, and what the listing does not
// show as a regular file (a folder named like a trace, a missing file) gives the same errors.
TEST_F(TraceReaderTest, LongIndexResolvesAsWithAStatPerFile)
{
  constexpr int kRanks = 300; // beyond the listing's threshold
  std::string index;
  std::vector<std::string> expected;
  for (int rank = 0; rank < kRanks; ++rank) {
    const std::string line = std::to_string(rank) + " init\n";
    std::string listed = "r" + std::to_string(rank) + ".txt";
    if (rank == 7) {
      listed = "sub/r7.txt";
      write(listed, line);
    } else if (rank == 8) {
      write("target8.txt", line);
      fs::create_symlink(dir_ / "target8.txt", dir_ / listed);
    } else {
      write(listed, line);
    }
    expected.push_back((dir_ / listed).string());
    index += listed + "\n";
  }
  const std::string index_path = write("index.txt", index);
  TraceSet set = TraceSet::open(index_path);
  ASSERT_EQ(set.size(), kRanks);
  for (int rank = 0; rank < kRanks; ++rank) {
    EXPECT_EQ(set.trace_file(rank), expected[static_cast<size_t>(rank)]);
    ASSERT_EQ(read_rank(set, rank).size(), 1u) << rank;
  }

  // From the index's folder: bare names resolve in the current directory, as they did.
  const fs::path before = fs::current_path();
  fs::current_path(dir_);
  EXPECT_EQ(TraceSet::open("index.txt").trace_file(5), "r5.txt");
  fs::current_path(before);

  const auto open_error = [&index_path](const std::string& index_text) -> std::string {
    std::ofstream(index_path, std::ios::binary) << index_text;
    try {
      TraceSet::open(index_path);
    } catch (const InputError& error) {
      return error.what();
    }
    return "no error";
  };
  fs::create_directories(dir_ / "folder.txt");
  EXPECT_EQ(open_error(index + "folder.txt\n"),
            index_path + ":301: trace file of rank 300 'folder.txt' not found (looked next to the index and in the " +
                "current directory)");
  EXPECT_EQ(open_error("missing.txt\n" + index),
            index_path + ":1: trace file of rank 0 'missing.txt' not found (looked next to the index and in the " +
                "current directory)");
}

// A rank file is read without a second fstat() (TraceIndex found it regular): a file of exactly one buffer and one a
// byte longer end where they end, and a file turned into a folder after the set was opened is refused as before.
TEST_F(TraceReaderTest, RankFilesOfABufferOrMoreAndAFileTurnedFolder)
{
  constexpr size_t kChunk = 64 * 1024; // the buffer of each of 4 ranks (TraceIndex.cpp)
  const std::string action = "0 compute 1\n";
  for (const size_t size : {kChunk, kChunk + action.size(), 2 * kChunk + 1}) {
    std::string lines;
    if (const size_t rest = size % action.size(); rest > 0)
      lines += std::string(rest - 1, '#') + "\n"; // a comment line to the size, then actions to the end
    for (size_t i = 0; i < size / action.size(); ++i)
      lines += action;
    ASSERT_EQ(lines.size(), size);
    const std::vector<TraceAction> actions = parse_rank0(lines);
    EXPECT_EQ(actions.size(), size / action.size()) << size;
  }

  std::string index;
  for (int rank = 0; rank < 2; ++rank)
    index += write("f" + std::to_string(rank) + ".txt", std::to_string(rank) + " init\n") + "\n";
  TraceSet set = TraceSet::open(write("index.txt", index));
  const std::string turned = (dir_ / "f1.txt").string();
  fs::remove(turned);
  fs::create_directories(turned);
  try {
    read_rank(set, 1);
    ADD_FAILURE() << "a folder read as a trace";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()), turned + ": not a regular file (a directory): the trace must be a file");
  }
  EXPECT_EQ(read_rank(set, 0).size(), 1u);
}

// ------------------------------------------------------------------------------------------------------ scale

namespace {

int open_descriptor_count()
{
  int count = 0;
  if (DIR* fds = ::opendir("/proc/self/fd")) {
    while (::readdir(fds) != nullptr)
      ++count;
    ::closedir(fds);
  }
  return count;
}

// Lowers the soft limit of open files for the test's duration.
class OpenFileLimit {
public:
  explicit OpenFileLimit(rlim_t soft)
  {
    ::getrlimit(RLIMIT_NOFILE, &saved_);
    rlimit lowered = saved_;
    lowered.rlim_cur = std::min(soft, saved_.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &lowered);
  }
  ~OpenFileLimit() { ::setrlimit(RLIMIT_NOFILE, &saved_); }

private:
  rlimit saved_{};
};

} // namespace

TEST_F(TraceReaderTest, TwentyThousandRanksUnderASmallOpenFileLimit)
{
  constexpr int kRanks = 20000;
  constexpr int kSteps = 50;
  std::string index;
  for (int rank = 0; rank < kRanks; ++rank) {
    std::string lines = std::to_string(rank) + " init\n";
    for (int step = 0; step < kSteps; ++step)
      lines += std::to_string(rank) + " isend " + std::to_string((rank + 1) % kRanks) + " " + std::to_string(step) +
               " 1024\n" + std::to_string(rank) + " compute 1e6\n";
    if (rank == 0) { // one line far longer than a rank's read buffer
      lines += "0 alltoallv 1";
      for (int peer = 0; peer < 2 * kRanks + 1; ++peer)
        lines += " 1";
      lines += "\n";
    }
    lines += std::to_string(rank) + " finalize";
    index += write("ti/rank" + std::to_string(rank) + ".txt", lines) + "\n";
  }
  const std::string index_path = write("index.txt", index);

  OpenFileLimit limit(256);
  const int descriptors_before = open_descriptor_count();
  TraceSet set = TraceSet::open(index_path);
  ASSERT_EQ(set.size(), kRanks);
  std::vector<RankStream> streams;
  streams.reserve(kRanks);
  for (int rank = 0; rank < kRanks; ++rank)
    streams.push_back(set.stream(rank));

  // Round robin, as a replay interleaves ranks.
  TraceAction action;
  long actions = 0;
  long alltoallv_counts = 0;
  std::vector<bool> finished(kRanks, false);
  for (int remaining = kRanks; remaining > 0;) {
    for (int rank = 0; rank < kRanks; ++rank) {
      if (finished[static_cast<size_t>(rank)])
        continue;
      if (streams[static_cast<size_t>(rank)].next(action)) {
        ++actions;
        if (action.kind == ActionKind::AllToAllV)
          alltoallv_counts =
              static_cast<long>(action.details->call.send_counts.size() + action.details->call.recv_counts.size());
      } else {
        finished[static_cast<size_t>(rank)] = true;
        --remaining;
      }
    }
    if (actions == kRanks * 10) {
      EXPECT_EQ(open_descriptor_count(), descriptors_before); // no descriptor kept between reads
    }
  }
  EXPECT_EQ(actions, static_cast<long>(kRanks) * (2 + 2 * kSteps) + 1);
  EXPECT_EQ(alltoallv_counts, 2L * kRanks);
  EXPECT_EQ(open_descriptor_count(), descriptors_before);
}
