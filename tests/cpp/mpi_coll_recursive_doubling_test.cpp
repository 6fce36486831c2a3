// The recursive-doubling building block (src/mpi/collectives/building_blocks/recursive_doubling.hpp) and the five
// collectives built on it: allgather rdb, allgatherv mpich_rdb, reduce_scatter mpich_rdb, bcast
// scatter_rdb_allgather, alltoall rdb.
//
// 1. The schedule itself: the worked examples of docs/specifications/recursive-collectives.md ("Building block",
//    P = 4, 5, 6, 7: step, sender, receiver, blocks, in each sender's order), and, for P = 1..70, a walk that
//    tracks which blocks each rank holds: a rank only sends blocks it holds, every send meets a receive of the same
//    blocks, each rank holds its whole group's blocks after each level and every block at the end.
// 2. The messages of each collective (sender, receiver, bytes, in the order each sender posted them), as reported
//    to an observer, against the page's tables.
// 3. The data: online runs with buffers for P = 1..9, counts that do not divide evenly, zero counts, in-place
//    allgather, and a non-commutative reduction (2x2 matrix product) for reduce_scatter, checked against the
//    definitions of MPI-3.1 chapter 5.
#include "mpi/Datatype.hpp"
#include "mpi/Observer.hpp"
#include "mpi/ReduceOp.hpp"
#include "mpi/Simulation.hpp"
#include "mpi/collectives/building_blocks/recursive_doubling.hpp"
#include "support/CollectiveMessages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

using namespace mpisim;
using namespace mpisim::testing_support;
namespace rd = mpisim::mpi::recursive_doubling;

namespace {

// ------------------------------------------------------------------------------------------------------------------
// 1. The schedule
// ------------------------------------------------------------------------------------------------------------------

// One row of the page's tables: blocks first..last inclusive, as the page writes them.
struct Row {
  std::string step;
  int receiver;
  int first;
  int last;
  bool operator==(const Row&) const = default;
};
using RowsBySender = std::map<int, std::vector<Row>>;

std::string label(const rd::Step& step)
{
  if (step.move == rd::Move::Exchange)
    return "x" + std::to_string(step.level);
  return "f" + std::to_string(step.level) + "." + std::to_string(step.sub_step);
}

// What each rank sends, in its order, according to the schedule.
RowsBySender scheduled_sends(int P)
{
  RowsBySender out;
  for (int r = 0; r < P; ++r)
    for (const rd::Step& step : rd::schedule(P, r))
      if (step.move != rd::Move::Receive)
        out[r].push_back({label(step), step.peer, step.sent.first, step.sent.last - 1});
  return out;
}

// The page's table rows {step, sender, receiver, first, last}, grouped by sender in table order.
struct TableRow {
  const char* step;
  int sender, receiver, first, last;
};
RowsBySender by_sender(const std::vector<TableRow>& table)
{
  RowsBySender out;
  for (const TableRow& row : table)
    out[row.sender].push_back({row.step, row.receiver, row.first, row.last});
  return out;
}

std::string describe(const RowsBySender& rows)
{
  std::string out;
  for (const auto& [sender, list] : rows)
    for (const Row& row : list)
      out += "  " + row.step + " " + std::to_string(sender) + " -> " + std::to_string(row.receiver) + " blocks " +
             std::to_string(row.first) + ".." + std::to_string(row.last) + "\n";
  return out;
}

void expect_schedule(int P, const std::vector<TableRow>& table)
{
  SCOPED_TRACE("P = " + std::to_string(P));
  const RowsBySender expected = by_sender(table);
  const RowsBySender got = scheduled_sends(P);
  EXPECT_EQ(got, expected) << "got:\n" << describe(got) << "expected:\n" << describe(expected);
}

// A power of two needs no pass-on: four exchanges per level.
TEST(mpi_coll_recursive_doubling, ScheduleOnFourRanks)
{
  expect_schedule(4, {{"x0", 0, 1, 0, 0},
                      {"x0", 1, 0, 1, 1},
                      {"x0", 2, 3, 2, 2},
                      {"x0", 3, 2, 3, 3},
                      {"x1", 0, 2, 0, 1},
                      {"x1", 1, 3, 0, 1},
                      {"x1", 2, 0, 2, 3},
                      {"x1", 3, 1, 2, 3}});
}

// P = 5: at level 2 the group {4..7} is cut to {4}; only rank 0 of {0..3} exchanged with it, and passes block 4 on
// by halving: to 2 at distance 2, then 0 -> 1 and 2 -> 3 at distance 1.
TEST(mpi_coll_recursive_doubling, ScheduleOnFiveRanks)
{
  expect_schedule(5, {{"x0", 0, 1, 0, 0},
                      {"x0", 1, 0, 1, 1},
                      {"x0", 2, 3, 2, 2},
                      {"x0", 3, 2, 3, 3},
                      {"x1", 0, 2, 0, 1},
                      {"x1", 1, 3, 0, 1},
                      {"x1", 2, 0, 2, 3},
                      {"x1", 3, 1, 2, 3},
                      {"x2", 0, 4, 0, 3},
                      {"x2", 4, 0, 4, 4},
                      {"f2.1", 0, 2, 4, 4},
                      {"f2.2", 0, 1, 4, 4},
                      {"f2.2", 2, 3, 4, 4}});
}

// P = 6: ranks 0 and 1 exchanged with the cut group {4, 5}; at distance 2 they pass it to 2 and 3, and at distance
// 1 nobody lacks it (2 holders, compared with offsets 0 and 1 of each pair).
TEST(mpi_coll_recursive_doubling, ScheduleOnSixRanks)
{
  expect_schedule(6, {{"x0", 0, 1, 0, 0},
                      {"x0", 1, 0, 1, 1},
                      {"x0", 2, 3, 2, 2},
                      {"x0", 3, 2, 3, 3},
                      {"x0", 4, 5, 4, 4},
                      {"x0", 5, 4, 5, 5},
                      {"x1", 0, 2, 0, 1},
                      {"x1", 1, 3, 0, 1},
                      {"x1", 2, 0, 2, 3},
                      {"x1", 3, 1, 2, 3},
                      {"x2", 0, 4, 0, 3},
                      {"x2", 1, 5, 0, 3},
                      {"x2", 4, 0, 4, 5},
                      {"x2", 5, 1, 4, 5},
                      {"f2.1", 0, 2, 4, 5},
                      {"f2.1", 1, 3, 4, 5}});
}

// P = 7: a pass-on already at level 1 (group {6} is cut; 4 got block 6 and passes it to 5), and at level 2 rank 3
// alone lacks the group {4..6}: 1 passes it at distance 2.
TEST(mpi_coll_recursive_doubling, ScheduleOnSevenRanks)
{
  expect_schedule(7, {{"x0", 0, 1, 0, 0},   {"x0", 1, 0, 1, 1}, {"x0", 2, 3, 2, 2}, {"x0", 3, 2, 3, 3},
                      {"x0", 4, 5, 4, 4},   {"x0", 5, 4, 5, 5}, {"x1", 0, 2, 0, 1}, {"x1", 1, 3, 0, 1},
                      {"x1", 2, 0, 2, 3},   {"x1", 3, 1, 2, 3}, {"x1", 4, 6, 4, 5}, {"x1", 6, 4, 6, 6},
                      {"f1.1", 4, 5, 6, 6}, {"x2", 0, 4, 0, 3}, {"x2", 1, 5, 0, 3}, {"x2", 2, 6, 0, 3},
                      {"x2", 4, 0, 4, 6},   {"x2", 5, 1, 4, 6}, {"x2", 6, 2, 4, 6}, {"f2.1", 1, 3, 4, 6}});
}

TEST(mpi_coll_recursive_doubling, OneRankHasNothingToDo)
{
  EXPECT_TRUE(rd::schedule(1, 0).empty());
}

// The slow, obvious check: play the schedule of every rank level by level, sub-step by sub-step, with the blocks
// each rank holds. Exchanges of a level happen together (each side sends what it held before); a pass-on send
// needs the blocks in hand and a receive posted by its peer at the same sub-step.
TEST(mpi_coll_recursive_doubling, EveryRankEndsWithEveryBlockAndSendsOnlyWhatItHolds)
{
  for (int P = 1; P <= 70; ++P) {
    SCOPED_TRACE("P = " + std::to_string(P));
    std::vector<std::vector<rd::Step>> steps(P);
    int levels = 0;
    for (int r = 0; r < P; ++r) {
      steps[r] = rd::schedule(P, r);
      for (const rd::Step& s : steps[r])
        levels = std::max(levels, s.level + 1);
    }
    std::vector<std::set<int>> held(P);
    for (int r = 0; r < P; ++r)
      held[r] = {r};
    auto holds = [&](int r, rd::BlockRange range) {
      for (int b = range.first; b < range.last; ++b)
        if (not held[r].contains(b))
          return false;
      return true;
    };
    auto give = [&](int r, rd::BlockRange range) {
      for (int b = range.first; b < range.last; ++b)
        held[r].insert(b);
    };
    auto steps_at = [&](int r, int level, int sub_step) {
      std::vector<rd::Step> out;
      for (const rd::Step& s : steps[r])
        if (s.level == level && s.sub_step == sub_step)
          out.push_back(s);
      return out;
    };
    for (int level = 0; level < levels; ++level) {
      const int distance = 1 << level;
      const std::vector<std::set<int>> before = held;
      for (int r = 0; r < P; ++r)
        for (const rd::Step& s : steps_at(r, level, 0)) {
          ASSERT_EQ(s.move, rd::Move::Exchange);
          ASSERT_EQ(s.peer, r ^ distance);
          const std::vector<rd::Step> peer_steps = steps_at(s.peer, level, 0);
          ASSERT_EQ(peer_steps.size(), 1u);
          EXPECT_EQ(peer_steps[0].peer, r);
          EXPECT_EQ(peer_steps[0].sent, s.received);
          for (int b = s.received.first; b < s.received.last; ++b)
            ASSERT_TRUE(before[s.peer].contains(b)) << "rank " << s.peer << " sends block " << b << " it lacks";
          give(r, s.received);
        }
      for (int sub_step = 1; sub_step <= level; ++sub_step)
        for (int r = 0; r < P; ++r)
          for (const rd::Step& s : steps_at(r, level, sub_step)) {
            if (s.move != rd::Move::Send)
              continue;
            ASSERT_TRUE(holds(r, s.sent)) << "rank " << r << " passes on blocks it lacks at " << label(s);
            const std::vector<rd::Step> peer_steps = steps_at(s.peer, level, sub_step);
            ASSERT_EQ(peer_steps.size(), 1u) << label(s) << " " << r << " -> " << s.peer;
            EXPECT_EQ(peer_steps[0].move, rd::Move::Receive);
            EXPECT_EQ(peer_steps[0].peer, r);
            EXPECT_EQ(peer_steps[0].received, s.sent);
            give(s.peer, s.sent);
          }
      for (int r = 0; r < P; ++r) {
        const int group = r / (2 * distance) * (2 * distance);
        ASSERT_TRUE(holds(r, {group, std::min(group + 2 * distance, P)}))
            << "rank " << r << " lacks part of its group after level " << level;
      }
    }
    for (int r = 0; r < P; ++r)
      EXPECT_EQ(held[r].size(), static_cast<size_t>(P)) << "rank " << r;
    // Every step belongs to a level and sub-step the walk played.
    for (int r = 0; r < P; ++r)
      for (const rd::Step& s : steps[r])
        EXPECT_LE(s.sub_step, s.level);
  }
}

// ------------------------------------------------------------------------------------------------------------------
// 2. Messages of the collectives
// ------------------------------------------------------------------------------------------------------------------

struct Message {
  int sender, receiver;
  double bytes;
};
using MessagesBySender = std::map<int, std::vector<std::pair<int, double>>>;

MessagesBySender group_by_sender(const std::vector<Message>& table)
{
  MessagesBySender out;
  for (const Message& m : table)
    out[m.sender].push_back({m.receiver, m.bytes});
  return out;
}

std::string describe(const MessagesBySender& messages)
{
  std::string out;
  for (const auto& [sender, list] : messages)
    for (const auto& [receiver, bytes] : list)
      out += "  " + std::to_string(sender) + " -> " + std::to_string(receiver) + ": " +
             std::to_string(static_cast<long long>(bytes)) + " B\n";
  return out;
}

// Every message of a run, reported by the MPI layer when it arrives; sorted by id afterwards, which is posting order.
class MessageRecorder : public mpi::Observer {
public:
  void message(const mpi::MessageRecord& record) override { records_.push_back(record); }
  std::vector<Message> in_posting_order()
  {
    std::sort(records_.begin(), records_.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    std::vector<Message> out;
    for (const mpi::MessageRecord& r : records_)
      out.push_back({r.source, r.destination, r.bytes});
    return out;
  }

private:
  std::vector<mpi::MessageRecord> records_;
};

// Runs the collective on P ranks (one per host) and compares what each rank sent, in the order it posted the sends,
// with the table (rows in table order).
void expect_messages(mpi::Collective op, const std::string& algorithm, int P,
                     const std::function<mpi::CollectiveCall(int me)>& make_call, const std::vector<Message>& table)
{
  SCOPED_TRACE(std::string(mpi::collective_name(op)) + "/" + algorithm + " on " + std::to_string(P) + " ranks");
  mpi::SimulationOptions options;
  options.platform = "cluster:" + std::to_string(P);
  options.model = "fluid";
  options.collective_algorithms[mpi::collective_name(op)] = algorithm;
  mpi::Simulation simulation(options, P);
  MessageRecorder recorder;
  simulation.world().add_observer(recorder);
  std::vector<bool> returned(P, false);
  simulation.world().launch([&](mpi::Rank& rank) {
    simulation.collectives().run(rank, rank.world().comm_world(), make_call(rank.world_rank()));
    returned[rank.world_rank()] = true;
  });
  simulation.engine().run();
  EXPECT_EQ(std::count(returned.begin(), returned.end(), true), P) << "a rank did not return";
  const MessagesBySender got = group_by_sender(recorder.in_posting_order()), expected = group_by_sender(table);
  EXPECT_EQ(got, expected) << "got:\n" << describe(got) << "expected:\n" << describe(expected);
}

std::vector<double> counts_ten_times_rank_plus_one(int P)
{
  std::vector<double> counts;
  for (int r = 0; r < P; ++r)
    counts.push_back(10.0 * (r + 1));
  return counts;
}

mpi::CollectiveCall allgather_call(double block)
{
  mpi::CollectiveCall call;
  call.op = mpi::Collective::Allgather;
  call.bytes = call.recv_bytes = block;
  return call;
}

TEST(mpi_coll_recursive_doubling, AllgatherMessages)
{
  const auto call = [](int) { return allgather_call(100); };
  expect_messages(
      mpi::Collective::Allgather, "rdb", 4, call,
      {{0, 1, 100}, {1, 0, 100}, {2, 3, 100}, {3, 2, 100}, {0, 2, 200}, {1, 3, 200}, {2, 0, 200}, {3, 1, 200}});
  expect_messages(mpi::Collective::Allgather, "rdb", 6, call,
                  {{0, 1, 100},
                   {1, 0, 100},
                   {2, 3, 100},
                   {3, 2, 100},
                   {4, 5, 100},
                   {5, 4, 100},
                   {0, 2, 200},
                   {1, 3, 200},
                   {2, 0, 200},
                   {3, 1, 200},
                   {0, 4, 400},
                   {1, 5, 400},
                   {4, 0, 200},
                   {5, 1, 200},
                   {0, 2, 200},
                   {1, 3, 200}});
  // No guard: 0-byte blocks still send the whole schedule (P = 5: 13 messages).
  expect_messages(mpi::Collective::Allgather, "rdb", 5, [](int) { return allgather_call(0); },
                  {{0, 1, 0},
                   {1, 0, 0},
                   {2, 3, 0},
                   {3, 2, 0},
                   {0, 2, 0},
                   {1, 3, 0},
                   {2, 0, 0},
                   {3, 1, 0},
                   {0, 4, 0},
                   {4, 0, 0},
                   {0, 2, 0},
                   {0, 1, 0},
                   {2, 3, 0}});
  expect_messages(mpi::Collective::Allgather, "rdb", 1, call, {});
}

mpi::CollectiveCall allgatherv_call(int me, const std::vector<double>& counts)
{
  mpi::CollectiveCall call;
  call.op = mpi::Collective::Allgatherv;
  call.bytes = counts[me];
  call.recv_counts = counts;
  return call;
}

TEST(mpi_coll_recursive_doubling, AllgathervMessages)
{
  expect_messages(mpi::Collective::Allgatherv, "mpich_rdb", 5,
                  [](int me) { return allgatherv_call(me, counts_ten_times_rank_plus_one(5)); },
                  {{0, 1, 10},
                   {1, 0, 20},
                   {2, 3, 30},
                   {3, 2, 40},
                   {0, 2, 30},
                   {1, 3, 30},
                   {2, 0, 70},
                   {3, 1, 70},
                   {0, 4, 100},
                   {4, 0, 50},
                   {0, 2, 50},
                   {0, 1, 50},
                   {2, 3, 50}});
  // Zero-sized blocks take part; only all-zero counts send nothing.
  expect_messages(mpi::Collective::Allgatherv, "mpich_rdb", 3,
                  [](int me) {
                    return allgatherv_call(me, {0, 0, 8});
                  },
                  {{0, 1, 0}, {1, 0, 0}, {0, 2, 0}, {2, 0, 8}, {0, 1, 8}});
  expect_messages(mpi::Collective::Allgatherv, "mpich_rdb", 5,
                  [](int me) {
                    return allgatherv_call(me, {0, 0, 0, 0, 0});
                  },
                  {});
}

mpi::CollectiveCall reduce_scatter_call(const std::vector<double>& counts)
{
  mpi::CollectiveCall call;
  call.op = mpi::Collective::ReduceScatter;
  call.recv_counts = counts;
  return call;
}

// Each exchange sends everything but the sender's group's blocks (counts 10, 20, ...; the page's tables).
TEST(mpi_coll_recursive_doubling, ReduceScatterMessages)
{
  const auto call = [](int P) { return [P](int) { return reduce_scatter_call(counts_ten_times_rank_plus_one(P)); }; };
  expect_messages(mpi::Collective::ReduceScatter, "mpich_rdb", 4, call(4),
                  {{0, 1, 90}, {1, 0, 80}, {2, 3, 70}, {3, 2, 60}, {0, 2, 70}, {1, 3, 70}, {2, 0, 30}, {3, 1, 30}});
  // P = 5 (total 150): the pass-on sends on what 0 got from 4, everything but block 4 (100 B).
  expect_messages(mpi::Collective::ReduceScatter, "mpich_rdb", 5, call(5),
                  {{0, 1, 140},
                   {1, 0, 130},
                   {2, 3, 120},
                   {3, 2, 110},
                   {0, 2, 120},
                   {1, 3, 120},
                   {2, 0, 80},
                   {3, 1, 80},
                   {0, 4, 50},
                   {4, 0, 100},
                   {0, 2, 100},
                   {0, 1, 100},
                   {2, 3, 100}});
  expect_messages(mpi::Collective::ReduceScatter, "mpich_rdb", 6, call(6),
                  {{0, 1, 200},
                   {1, 0, 190},
                   {2, 3, 180},
                   {3, 2, 170},
                   {4, 5, 160},
                   {5, 4, 150},
                   {0, 2, 180},
                   {1, 3, 180},
                   {2, 0, 140},
                   {3, 1, 140},
                   {0, 4, 110},
                   {1, 5, 110},
                   {4, 0, 100},
                   {5, 1, 100},
                   {0, 2, 100},
                   {1, 3, 100}});
  // No early return: an empty vector sends the whole schedule with 0 bytes.
  expect_messages(mpi::Collective::ReduceScatter, "mpich_rdb", 3,
                  [](int) {
                    return reduce_scatter_call({0, 0, 0});
                  },
                  {{0, 1, 0}, {1, 0, 0}, {0, 2, 0}, {2, 0, 0}, {0, 1, 0}});
}

mpi::CollectiveCall bcast_call(double bytes, int root)
{
  mpi::CollectiveCall call;
  call.op = mpi::Collective::Bcast;
  call.bytes = bytes;
  call.root = root;
  return call;
}

// Senders and receivers are real ranks; the page's tables (scatter first, then the allgather over relative ranks).
TEST(mpi_coll_recursive_doubling, BcastMessages)
{
  expect_messages(mpi::Collective::Bcast, "scatter_rdb_allgather", 4, [](int) { return bcast_call(1003, 2); },
                  {{2, 0, 501},
                   {2, 3, 251},
                   {0, 1, 250},
                   {2, 3, 251},
                   {3, 2, 251},
                   {0, 1, 251},
                   {1, 0, 250},
                   {2, 0, 502},
                   {3, 1, 502},
                   {0, 2, 501},
                   {1, 3, 501}});
  expect_messages(mpi::Collective::Bcast, "scatter_rdb_allgather", 6, [](int) { return bcast_call(1003, 2); },
                  {{2, 0, 331}, {2, 4, 336}, {2, 3, 168}, {4, 5, 168}, {0, 1, 163}, {2, 3, 168}, {3, 2, 168},
                   {4, 5, 168}, {5, 4, 168}, {0, 1, 168}, {1, 0, 163}, {2, 4, 336}, {3, 5, 336}, {4, 2, 336},
                   {5, 3, 336}, {2, 0, 672}, {3, 1, 672}, {0, 2, 331}, {1, 3, 331}, {2, 4, 331}, {3, 5, 331}});
  // Piece 5 is empty: no scatter message to 5, and 5's exchange at level 0 carries 0 bytes.
  expect_messages(mpi::Collective::Bcast, "scatter_rdb_allgather", 6, [](int) { return bcast_call(10, 0); },
                  {{0, 4, 2}, {0, 2, 4}, {0, 1, 2}, {2, 3, 2}, {0, 1, 2}, {1, 0, 2}, {2, 3, 2},
                   {3, 2, 2}, {4, 5, 2}, {5, 4, 0}, {0, 2, 4}, {1, 3, 4}, {2, 0, 4}, {3, 1, 4},
                   {0, 4, 8}, {1, 5, 8}, {4, 0, 2}, {5, 1, 2}, {0, 2, 2}, {1, 3, 2}});
  expect_messages(mpi::Collective::Bcast, "scatter_rdb_allgather", 4, [](int) { return bcast_call(0, 1); }, {});
  expect_messages(mpi::Collective::Bcast, "scatter_rdb_allgather", 1, [](int) { return bcast_call(100, 0); }, {});
}

mpi::CollectiveCall alltoall_call(double block)
{
  mpi::CollectiveCall call;
  call.op = mpi::Collective::Alltoall;
  call.bytes = call.recv_bytes = block;
  return call;
}

// Whole send buffers (P blocks) are gathered.
TEST(mpi_coll_recursive_doubling, AlltoallMessages)
{
  const auto call = [](int) { return alltoall_call(10); };
  expect_messages(mpi::Collective::Alltoall, "rdb", 4, call,
                  {{0, 1, 40}, {1, 0, 40}, {2, 3, 40}, {3, 2, 40}, {0, 2, 80}, {1, 3, 80}, {2, 0, 80}, {3, 1, 80}});
  expect_messages(mpi::Collective::Alltoall, "rdb", 6, call,
                  {{0, 1, 60},
                   {1, 0, 60},
                   {2, 3, 60},
                   {3, 2, 60},
                   {4, 5, 60},
                   {5, 4, 60},
                   {0, 2, 120},
                   {1, 3, 120},
                   {2, 0, 120},
                   {3, 1, 120},
                   {0, 4, 240},
                   {1, 5, 240},
                   {4, 0, 120},
                   {5, 1, 120},
                   {0, 2, 120},
                   {1, 3, 120}});
}

// The 5-rank expectations the operations' test files register (root 2, B = 1000 B; see call_for), checked here too
// because mpi_collectives_algorithms.EveryAlgorithmSendsWhatItsDefinitionSays stops at the first operation whose
// algorithms are not all present.
TEST(mpi_coll_recursive_doubling, FiveRankExpectationsOfTheOperationTests)
{
  const std::pair<mpi::Collective, const char*> algorithms[] = {{mpi::Collective::Allgather, "rdb"},
                                                                {mpi::Collective::Allgatherv, "mpich_rdb"},
                                                                {mpi::Collective::Bcast, "scatter_rdb_allgather"},
                                                                {mpi::Collective::Alltoall, "rdb"}};
  for (const auto& [op, algorithm] : algorithms) {
    const std::string key = std::string(mpi::collective_name(op)) + "/" + algorithm;
    SCOPED_TRACE(key);
    ASSERT_TRUE(expected_messages().contains(key));
    Messages expected = expected_messages()[key]();
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(run_collective(op, algorithm, 5).messages, expected);
  }
}

// ------------------------------------------------------------------------------------------------------------------
// 3. Data
// ------------------------------------------------------------------------------------------------------------------

using Word = uint32_t;
using Words = std::vector<Word>;

// Word k of rank r's input: distinct across ranks and positions.
Word input(int rank, size_t k)
{
  return static_cast<Word>((rank * 7907 + k * 3571 + 11) % 65519 + 1);
}
Words inputs(int rank, size_t from, size_t n)
{
  Words out(n);
  for (size_t k = 0; k < n; ++k)
    out[k] = input(rank, from + k);
  return out;
}
std::byte* bytes_of(Words& w)
{
  return reinterpret_cast<std::byte*>(w.data());
}
constexpr Word kUntouched = 0xfeedf00d;
constexpr double kWord = sizeof(Word);

// Runs the collective with each rank's call (whose pointers point into buffers the caller keeps).
void run_with_data(mpi::Collective op, const std::string& algorithm, std::vector<mpi::CollectiveCall>& calls)
{
  for (mpi::CollectiveCall& call : calls) {
    call.op = op;
    call.with_data = true;
  }
  const int P = static_cast<int>(calls.size());
  run_collective(op, algorithm, P, "fluid", "", [&](int me) { return calls[me]; });
}

// Block sizes (words) with remainders and zeros: base + (r mod 3), or 0 for every third rank when base is 0.
std::vector<size_t> uneven_counts(int P, size_t base)
{
  std::vector<size_t> counts;
  for (int r = 0; r < P; ++r)
    counts.push_back(base == 0 ? (r % 3 == 1 ? 2 : 0) : base + static_cast<size_t>(r % 3));
  return counts;
}

TEST(mpi_coll_recursive_doubling, AllgatherData)
{
  for (int P = 1; P <= 9; ++P)
    for (size_t n : {size_t{0}, size_t{1}, size_t{3}, static_cast<size_t>(2 * P + 1)})
      for (bool in_place : {false, true}) {
        SCOPED_TRACE("P = " + std::to_string(P) + ", " + std::to_string(n) + " words" + (in_place ? ", in place" : ""));
        std::vector<Words> send(P), recv(P);
        std::vector<mpi::CollectiveCall> calls(P);
        for (int me = 0; me < P; ++me) {
          send[me] = inputs(me, 0, n);
          recv[me] = Words(P * n, kUntouched);
          calls[me].bytes = calls[me].recv_bytes = kWord * n;
          calls[me].recv_data = bytes_of(recv[me]);
          if (in_place) {
            std::copy(send[me].begin(), send[me].end(), recv[me].begin() + static_cast<long>(me * n));
            calls[me].send_data = calls[me].recv_data + static_cast<long>(kWord * me * n);
          } else {
            calls[me].send_data = bytes_of(send[me]);
          }
        }
        run_with_data(mpi::Collective::Allgather, "rdb", calls);
        Words expected;
        for (int r = 0; r < P; ++r) {
          const Words block = inputs(r, 0, n);
          expected.insert(expected.end(), block.begin(), block.end());
        }
        for (int me = 0; me < P; ++me)
          ASSERT_EQ(recv[me], expected) << "rank " << me;
      }
}

TEST(mpi_coll_recursive_doubling, AllgathervData)
{
  for (int P = 1; P <= 9; ++P)
    for (size_t base : {size_t{0}, size_t{1}, size_t{5}}) {
      SCOPED_TRACE("P = " + std::to_string(P) + ", base " + std::to_string(base));
      const std::vector<size_t> counts = uneven_counts(P, base);
      // The user's layout: blocks in reverse rank order, with a one-word gap after each.
      std::vector<double> count_bytes(P), displs(P);
      size_t words = 0;
      for (int r = P - 1; r >= 0; --r) {
        count_bytes[r] = kWord * counts[r];
        displs[r] = kWord * words;
        words += counts[r] + 1;
      }
      std::vector<Words> send(P), recv(P);
      std::vector<mpi::CollectiveCall> calls(P);
      for (int me = 0; me < P; ++me) {
        send[me] = inputs(me, 0, counts[me]);
        recv[me] = Words(words, kUntouched);
        calls[me].bytes = count_bytes[me];
        calls[me].recv_counts = count_bytes;
        calls[me].recv_displs = displs;
        calls[me].send_data = bytes_of(send[me]);
        calls[me].recv_data = bytes_of(recv[me]);
      }
      run_with_data(mpi::Collective::Allgatherv, "mpich_rdb", calls);
      Words expected(words, kUntouched);
      for (int r = 0; r < P; ++r) {
        const Words block = inputs(r, 0, counts[r]);
        std::copy(block.begin(), block.end(), expected.begin() + static_cast<long>(displs[r] / kWord));
      }
      for (int me = 0; me < P; ++me)
        ASSERT_EQ(recv[me], expected) << "rank " << me;
    }
}

// Elements of the reductions: one word under SUM (commutative), or a 2x2 matrix of words under the matrix product
// (modulo 2^32; associative, not commutative, so any change of order shows).
struct Reduction {
  bool matrix;
  size_t words() const { return matrix ? 4 : 1; }
  void apply(const Word* left, Word* right) const // right = left op right
  {
    if (not matrix) {
      right[0] += left[0];
      return;
    }
    const Word product[4] = {left[0] * right[0] + left[1] * right[2], left[0] * right[1] + left[1] * right[3],
                             left[2] * right[0] + left[3] * right[2], left[2] * right[1] + left[3] * right[3]};
    std::memcpy(right, product, sizeof product);
  }
};

void set_reduction(mpi::CollectiveCall& call, const Reduction& reduction)
{
  static const mpi::DatatypePtr matrix_type =
      mpi::Datatype::contiguous(4, mpi::Datatype::predefined(mpi::Element::UInt32));
  static const mpi::ReduceOpPtr matrix_product = mpi::ReduceOp::user(
      [](const void* in, void* inout, int count, const mpi::Datatype&) {
        for (int i = 0; i < count; ++i)
          Reduction{true}.apply(static_cast<const Word*>(in) + 4 * i, static_cast<Word*>(inout) + 4 * i);
      },
      false, "2x2 matrix product");
  call.element_bytes = kWord * static_cast<double>(reduction.words());
  call.commutative = not reduction.matrix;
  call.reduce_type = reduction.matrix ? matrix_type : mpi::Datatype::predefined(mpi::Element::Unsigned);
  call.reduce_op = reduction.matrix ? matrix_product : mpi::ReduceOp::predefined(mpi::ReduceOperation::Sum);
}

TEST(mpi_coll_recursive_doubling, ReduceScatterData)
{
  for (int P = 1; P <= 9; ++P)
    for (size_t base : {size_t{0}, size_t{1}, size_t{4}})
      for (bool matrix : {false, true})
        for (bool in_place : {false, true}) {
          const Reduction reduction{matrix};
          SCOPED_TRACE("P = " + std::to_string(P) + ", base " + std::to_string(base) +
                       (matrix ? ", matrix product" : ", sum") + (in_place ? ", in place" : ""));
          const std::vector<size_t> elements = uneven_counts(P, base);
          const size_t total = std::accumulate(elements.begin(), elements.end(), size_t{0});
          const size_t w = reduction.words();
          std::vector<Words> send(P), recv(P);
          std::vector<mpi::CollectiveCall> calls(P);
          for (int me = 0; me < P; ++me) {
            set_reduction(calls[me], reduction);
            for (size_t e : elements)
              calls[me].recv_counts.push_back(kWord * static_cast<double>(e * w));
            send[me] = inputs(me, 0, total * w);
            // In place (MPI_IN_PLACE): the input comes in the receive buffer, whose start gets the result.
            recv[me] = in_place ? send[me] : Words(elements[me] * w, kUntouched);
            calls[me].recv_data = bytes_of(recv[me]);
            calls[me].send_data = in_place ? calls[me].recv_data : bytes_of(send[me]);
          }
          run_with_data(mpi::Collective::ReduceScatter, "mpich_rdb", calls);
          // x_0 op x_1 op ... op x_{P-1}, element by element.
          Words all = inputs(P - 1, 0, total * w);
          for (int r = P - 2; r >= 0; --r) {
            const Words x = inputs(r, 0, total * w);
            for (size_t e = 0; e < total; ++e)
              reduction.apply(x.data() + e * w, all.data() + e * w);
          }
          size_t offset = 0;
          for (int me = 0; me < P; ++me) {
            const size_t mine = elements[me] * w;
            const Words expected(all.begin() + static_cast<long>(offset),
                                 all.begin() + static_cast<long>(offset + mine));
            const Words result(recv[me].begin(), recv[me].begin() + static_cast<long>(mine));
            ASSERT_EQ(result, expected) << "rank " << me;
            offset += mine;
          }
        }
}

TEST(mpi_coll_recursive_doubling, BcastData)
{
  for (int P = 1; P <= 9; ++P)
    for (size_t n : {size_t{1}, size_t{3}, static_cast<size_t>(P - 1), static_cast<size_t>(2 * P + 1), size_t{1003}})
      for (int root : {0, P / 2, P - 1}) {
        SCOPED_TRACE("P = " + std::to_string(P) + ", " + std::to_string(n) + " words, root " + std::to_string(root));
        std::vector<Words> buffer(P);
        std::vector<mpi::CollectiveCall> calls(P);
        for (int me = 0; me < P; ++me) {
          buffer[me] = me == root ? inputs(root, 0, n) : Words(n, kUntouched);
          calls[me].bytes = kWord * n;
          calls[me].root = root;
          calls[me].recv_data = bytes_of(buffer[me]);
        }
        run_with_data(mpi::Collective::Bcast, "scatter_rdb_allgather", calls);
        for (int me = 0; me < P; ++me)
          ASSERT_EQ(buffer[me], inputs(root, 0, n)) << "rank " << me;
      }
}

// Bytes that do not make whole words: pieces of ceil(bytes / P) bytes, some short, some empty.
TEST(mpi_coll_recursive_doubling, BcastDataOfOddByteCounts)
{
  for (int P = 2; P <= 9; ++P)
    for (double bytes : {1.0, 7.0, 10.0, 1003.0}) {
      SCOPED_TRACE("P = " + std::to_string(P) + ", " + std::to_string(static_cast<int>(bytes)) + " bytes");
      const int root = P - 2;
      std::vector<Words> buffer(P);
      std::vector<mpi::CollectiveCall> calls(P);
      const Words source = inputs(root, 0, 300);
      for (int me = 0; me < P; ++me) {
        buffer[me] = me == root ? source : Words(300, kUntouched);
        calls[me].bytes = bytes;
        calls[me].root = root;
        calls[me].recv_data = bytes_of(buffer[me]);
      }
      run_with_data(mpi::Collective::Bcast, "scatter_rdb_allgather", calls);
      for (int me = 0; me < P; ++me) {
        EXPECT_EQ(std::memcmp(buffer[me].data(), source.data(), static_cast<size_t>(bytes)), 0) << "rank " << me;
        const size_t first_untouched = (static_cast<size_t>(bytes) + 3) / 4;
        if (me != root) {
          EXPECT_EQ(buffer[me][first_untouched], kUntouched) << "rank " << me << " written past the buffer";
        }
      }
    }
}

TEST(mpi_coll_recursive_doubling, AlltoallData)
{
  for (int P = 1; P <= 9; ++P)
    for (size_t n : {size_t{0}, size_t{1}, size_t{3}}) {
      SCOPED_TRACE("P = " + std::to_string(P) + ", " + std::to_string(n) + " words per block");
      std::vector<Words> send(P), recv(P);
      std::vector<mpi::CollectiveCall> calls(P);
      for (int me = 0; me < P; ++me) {
        send[me] = inputs(me, 0, P * n); // block j (for rank j): words j*n .. j*n + n - 1
        recv[me] = Words(P * n, kUntouched);
        calls[me].bytes = calls[me].recv_bytes = kWord * n;
        calls[me].send_data = bytes_of(send[me]);
        calls[me].recv_data = bytes_of(recv[me]);
      }
      run_with_data(mpi::Collective::Alltoall, "rdb", calls);
      for (int me = 0; me < P; ++me) {
        Words expected;
        for (int source = 0; source < P; ++source) {
          const Words block = inputs(source, me * n, n);
          expected.insert(expected.end(), block.begin(), block.end());
        }
        ASSERT_EQ(recv[me], expected) << "rank " << me;
      }
    }
}

} // namespace
