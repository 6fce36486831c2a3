// The worked examples of docs/specifications/recursive-collectives.md for the algorithms built on recursive halving
// (reduce scatter_gather, reduce_scatter ompi_basic_recursivehalving and ompi_butterfly, allreduce rab_rdb) and for
// reduce mvapich2_knomial: each run sends exactly the messages of the page's table (sender, receiver, bytes), and each
// sender posts its messages in the table's order. The tables are copied from the page; the byte offsets they also
// give are checked by the data tests (mpi_collectives_data_test.cpp), which fail on any misplaced block.
#include "mpi/Observer.hpp"
#include "mpi/Rank.hpp"
#include "mpi/Simulation.hpp"
#include "mpi/collectives/Collectives.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace mpisim;

namespace {

// One row of a schedule table.
struct Row {
  const char* step;
  int sender;
  int receiver;
  double bytes;
};
using Schedule = std::vector<Row>;

struct Posted {
  int sender;
  int receiver;
  double bytes;
  uint64_t id; // posting order
};

// Runs the collective on P ranks (one per host of cluster:P), rank r calling with make_call(r); returns every message
// in posting order.
std::vector<Posted> run_recorded(mpi::Collective op, const std::string& algorithm, int P,
                                 const std::function<mpi::CollectiveCall(int me)>& make_call)
{
  struct Recorder : mpi::Observer {
    std::vector<Posted> posted;
    void message(const mpi::MessageRecord& m) override { posted.push_back({m.source, m.destination, m.bytes, m.id}); }
  } recorder;
  mpi::SimulationOptions options;
  options.platform = "cluster:" + std::to_string(P);
  options.collective_algorithms[mpi::collective_name(op)] = algorithm;
  mpi::Simulation simulation(options, P);
  simulation.world().add_observer(recorder);
  simulation.world().launch([&](mpi::Rank& rank) {
    simulation.collectives().run(rank, rank.world().comm_world(), make_call(rank.world_rank()));
  });
  simulation.engine().run();
  std::sort(recorder.posted.begin(), recorder.posted.end(),
            [](const Posted& a, const Posted& b) { return a.id < b.id; });
  return recorder.posted;
}

// "sender: -> receiver (bytes), ..." per sender, in order: equal texts mean the same messages in the same order per
// sender.
std::string per_sender(const std::vector<std::pair<int, std::pair<int, double>>>& messages)
{
  std::map<int, std::string> lines;
  for (const auto& [sender, message] : messages)
    lines[sender] +=
        " -> " + std::to_string(message.first) + " (" + std::to_string(static_cast<long long>(message.second)) + ")";
  std::string out;
  for (const auto& [sender, line] : lines)
    out += std::to_string(sender) + ":" + line + "\n";
  return out;
}

void expect_schedule(mpi::Collective op, const std::string& algorithm, int P,
                     const std::function<mpi::CollectiveCall(int me)>& make_call, const Schedule& table)
{
  SCOPED_TRACE(std::string(mpi::collective_name(op)) + "/" + algorithm + " on " + std::to_string(P) + " ranks");
  std::vector<std::pair<int, std::pair<int, double>>> expected, got;
  for (const Row& row : table)
    expected.push_back({row.sender, {row.receiver, row.bytes}});
  for (const Posted& message : run_recorded(op, algorithm, P, make_call))
    got.push_back({message.sender, {message.receiver, message.bytes}});
  EXPECT_EQ(per_sender(got), per_sender(expected));
}

// The page's reduce and allreduce examples: n elements of 8 bytes.
std::function<mpi::CollectiveCall(int)> vector_call(mpi::Collective op, double elements, int root)
{
  return [=](int) {
    mpi::CollectiveCall call;
    call.op = op;
    call.element_bytes = 8;
    call.bytes = 8 * elements;
    call.root = root;
    return call;
  };
}

// The page's reduce_scatter examples: rank r keeps counts[r] bytes (e = 1).
std::function<mpi::CollectiveCall(int)> scatter_call(const std::vector<double>& counts)
{
  return [=](int) {
    mpi::CollectiveCall call;
    call.op = mpi::Collective::ReduceScatter;
    call.recv_counts = counts;
    return call;
  };
}

std::vector<double> counts_10_per_rank(int P)
{
  std::vector<double> counts;
  for (int r = 0; r < P; ++r)
    counts.push_back(10.0 * (r + 1));
  return counts;
}

TEST(mpi_coll_recursive_halving, ScatterGatherExamples)
{
  const auto reduce = mpi::Collective::Reduce;
  expect_schedule(reduce, "scatter_gather", 4, vector_call(reduce, 13, 1),
                  {{"rs 1", 0, 1, 56},
                   {"rs 1", 1, 0, 48},
                   {"rs 1", 2, 3, 56},
                   {"rs 1", 3, 2, 48},
                   {"rs 2", 0, 2, 24},
                   {"rs 2", 1, 3, 32},
                   {"rs 2", 2, 0, 24},
                   {"rs 2", 3, 1, 24},
                   {"gather 2", 2, 0, 24},
                   {"gather 2", 3, 1, 32},
                   {"gather 1", 0, 1, 48}});
  const Schedule halving_on_six = {{"fold 0", 1, 0, 104}, {"fold 0", 3, 2, 104}, {"rs 1", 0, 2, 56}, {"rs 1", 2, 0, 48},
                                   {"rs 1", 4, 5, 56},    {"rs 1", 5, 4, 48},    {"rs 2", 0, 4, 24}, {"rs 2", 2, 5, 32},
                                   {"rs 2", 4, 0, 24},    {"rs 2", 5, 2, 24}};
  Schedule root_sat_out = halving_on_six;
  root_sat_out.insert(
      root_sat_out.end(),
      {{"handover 0", 0, 3, 24}, {"gather 2", 4, 3, 24}, {"gather 2", 5, 2, 32}, {"gather 1", 2, 3, 56}});
  expect_schedule(reduce, "scatter_gather", 6, vector_call(reduce, 13, 3), root_sat_out);
  Schedule surviving_root = halving_on_six;
  surviving_root.insert(surviving_root.end(), {{"gather 2", 4, 0, 24}, {"gather 2", 5, 2, 32}, {"gather 1", 0, 2, 48}});
  expect_schedule(reduce, "scatter_gather", 6, vector_call(reduce, 13, 2), surviving_root);
}

// Fewer elements than ranks: the vector is padded to one element per rank (blocks of 1, 1, 1, 3 elements).
TEST(mpi_coll_recursive_halving, ScatterGatherPadsShortVectors)
{
  const auto reduce = mpi::Collective::Reduce;
  expect_schedule(reduce, "scatter_gather", 6, vector_call(reduce, 3, 1),
                  {{"fold 0", 1, 0, 48},
                   {"fold 0", 3, 2, 48},
                   {"rs 1", 0, 2, 32},
                   {"rs 1", 2, 0, 16},
                   {"rs 1", 4, 5, 32},
                   {"rs 1", 5, 4, 16},
                   {"rs 2", 0, 4, 8},
                   {"rs 2", 2, 5, 24},
                   {"rs 2", 4, 0, 8},
                   {"rs 2", 5, 2, 8},
                   {"handover 0", 0, 1, 8},
                   {"gather 2", 4, 1, 8},
                   {"gather 2", 5, 2, 24},
                   {"gather 1", 2, 1, 32}});
}

TEST(mpi_coll_recursive_halving, RecursiveHalvingExamples)
{
  const auto op = mpi::Collective::ReduceScatter;
  expect_schedule(op, "ompi_basic_recursivehalving", 4, scatter_call(counts_10_per_rank(4)),
                  {{"rh 2", 0, 2, 70},
                   {"rh 2", 1, 3, 70},
                   {"rh 2", 2, 0, 30},
                   {"rh 2", 3, 1, 30},
                   {"rh 1", 0, 1, 20},
                   {"rh 1", 1, 0, 10},
                   {"rh 1", 2, 3, 40},
                   {"rh 1", 3, 2, 30}});
  expect_schedule(op, "ompi_basic_recursivehalving", 6, scatter_call(counts_10_per_rank(6)),
                  {{"fold 0", 0, 1, 210},
                   {"fold 0", 2, 3, 210},
                   {"rh 2", 1, 4, 110},
                   {"rh 2", 3, 5, 110},
                   {"rh 2", 4, 1, 100},
                   {"rh 2", 5, 3, 100},
                   {"rh 1", 1, 3, 70},
                   {"rh 1", 3, 1, 30},
                   {"rh 1", 4, 5, 60},
                   {"rh 1", 5, 4, 50},
                   {"back 0", 1, 0, 10},
                   {"back 0", 3, 2, 30}});
}

// Counts 0, 20, 30, 0: at distance 1 each pair has one empty half. Open MPI and SMPI send nothing in either direction
// there (and lose data); the non-empty half goes one way here.
TEST(mpi_coll_recursive_halving, RecursiveHalvingSendsOnlyNonEmptyHalves)
{
  expect_schedule(mpi::Collective::ReduceScatter, "ompi_basic_recursivehalving", 4, scatter_call({0, 20, 30, 0}),
                  {{"rh 2", 0, 2, 30},
                   {"rh 2", 1, 3, 30},
                   {"rh 2", 2, 0, 20},
                   {"rh 2", 3, 1, 20},
                   {"rh 1", 0, 1, 20},
                   {"rh 1", 3, 2, 30}});
  // An empty rank 0 gets nothing back after the fold.
  expect_schedule(mpi::Collective::ReduceScatter, "ompi_basic_recursivehalving", 3, scatter_call({0, 10, 10}),
                  {{"fold 0", 0, 1, 20}, {"rh 1", 1, 2, 10}, {"rh 1", 2, 1, 10}});
}

TEST(mpi_coll_recursive_halving, ButterflyExamples)
{
  const auto op = mpi::Collective::ReduceScatter;
  expect_schedule(op, "ompi_butterfly", 4, scatter_call(counts_10_per_rank(4)),
                  {{"bf 1", 0, 1, 70},
                   {"bf 1", 1, 0, 30},
                   {"bf 1", 2, 3, 70},
                   {"bf 1", 3, 2, 30},
                   {"bf 2", 0, 2, 20},
                   {"bf 2", 1, 3, 40},
                   {"bf 2", 2, 0, 10},
                   {"bf 2", 3, 1, 30},
                   {"final 0", 1, 2, 30},
                   {"final 0", 2, 1, 20}});
  expect_schedule(op, "ompi_butterfly", 6, scatter_call(counts_10_per_rank(6)),
                  {{"fold 0", 0, 1, 210},
                   {"fold 0", 2, 3, 210},
                   {"bf 1", 1, 3, 110},
                   {"bf 1", 3, 1, 100},
                   {"bf 1", 4, 5, 110},
                   {"bf 1", 5, 4, 100},
                   {"bf 2", 1, 4, 70},
                   {"bf 2", 3, 5, 60},
                   {"bf 2", 4, 1, 30},
                   {"bf 2", 5, 3, 50},
                   {"final 0", 1, 0, 10},
                   {"final 0", 3, 4, 50},
                   {"final 0", 4, 2, 30},
                   {"final 0", 4, 3, 40}});
}

// No zero guard: an empty vector sends the whole schedule with 0-byte messages.
TEST(mpi_coll_recursive_halving, ButterflySendsEmptyMessages)
{
  expect_schedule(mpi::Collective::ReduceScatter, "ompi_butterfly", 3, scatter_call({0, 0, 0}),
                  {{"fold 0", 0, 1, 0}, {"bf 1", 1, 2, 0}, {"bf 1", 2, 1, 0}, {"final 0", 1, 0, 0}});
}

TEST(mpi_coll_recursive_halving, RabRdbExamples)
{
  const auto op = mpi::Collective::Allreduce;
  expect_schedule(op, "rab_rdb", 4, vector_call(op, 13, 0),
                  {{"rs 1", 0, 1, 56},
                   {"rs 1", 1, 0, 48},
                   {"rs 1", 2, 3, 56},
                   {"rs 1", 3, 2, 48},
                   {"rs 2", 0, 2, 24},
                   {"rs 2", 1, 3, 32},
                   {"rs 2", 2, 0, 24},
                   {"rs 2", 3, 1, 24},
                   {"ag 2", 0, 2, 24},
                   {"ag 2", 1, 3, 24},
                   {"ag 2", 2, 0, 24},
                   {"ag 2", 3, 1, 32},
                   {"ag 1", 0, 1, 48},
                   {"ag 1", 1, 0, 56},
                   {"ag 1", 2, 3, 48},
                   {"ag 1", 3, 2, 56}});
  expect_schedule(op, "rab_rdb", 6, vector_call(op, 13, 0),
                  {{"fold 0", 0, 1, 104}, {"fold 0", 2, 3, 104}, {"rs 1", 1, 3, 56},      {"rs 1", 3, 1, 48},
                   {"rs 1", 4, 5, 56},    {"rs 1", 5, 4, 48},    {"rs 2", 1, 4, 24},      {"rs 2", 3, 5, 32},
                   {"rs 2", 4, 1, 24},    {"rs 2", 5, 3, 24},    {"ag 2", 1, 4, 24},      {"ag 2", 3, 5, 24},
                   {"ag 2", 4, 1, 24},    {"ag 2", 5, 3, 32},    {"ag 1", 1, 3, 48},      {"ag 1", 3, 1, 56},
                   {"ag 1", 4, 5, 48},    {"ag 1", 5, 4, 56},    {"unfold 0", 1, 0, 104}, {"unfold 0", 3, 2, 104}});
}

// Fewer elements than survivors: every block but the last is empty, and its messages are sent with 0 bytes.
TEST(mpi_coll_recursive_halving, RabRdbSendsEmptyBlocks)
{
  const auto op = mpi::Collective::Allreduce;
  expect_schedule(op, "rab_rdb", 4, vector_call(op, 1, 0),
                  {{"rs 1", 0, 1, 8},
                   {"rs 1", 1, 0, 0},
                   {"rs 1", 2, 3, 8},
                   {"rs 1", 3, 2, 0},
                   {"rs 2", 0, 2, 0},
                   {"rs 2", 1, 3, 8},
                   {"rs 2", 2, 0, 0},
                   {"rs 2", 3, 1, 0},
                   {"ag 2", 0, 2, 0},
                   {"ag 2", 1, 3, 0},
                   {"ag 2", 2, 0, 0},
                   {"ag 2", 3, 1, 8},
                   {"ag 1", 0, 1, 0},
                   {"ag 1", 1, 0, 8},
                   {"ag 1", 2, 3, 0},
                   {"ag 1", 3, 2, 8}});
}

TEST(mpi_coll_recursive_halving, KnomialExamples)
{
  const auto op = mpi::Collective::Reduce;
  const double B = 1000;
  auto call = [&](int root) { return vector_call(op, B / 8, root); };
  expect_schedule(op, "mvapich2_knomial", 4, call(2), {{"", 0, 2, B}, {"", 1, 2, B}, {"", 3, 2, B}});
  expect_schedule(op, "mvapich2_knomial", 6, call(2),
                  {{"", 1, 0, B}, {"", 3, 2, B}, {"", 4, 2, B}, {"", 5, 2, B}, {"", 0, 2, B}});
  Schedule two_levels;
  for (int leader : {0, 4, 8, 12, 16})
    for (int child = leader + 1; child < std::min(leader + 4, 18); ++child)
      two_levels.push_back({"", child, leader, B});
  for (int leader : {4, 8, 12, 16})
    two_levels.push_back({"", leader, 0, B});
  expect_schedule(op, "mvapich2_knomial", 18, call(0), two_levels);
}

} // namespace
