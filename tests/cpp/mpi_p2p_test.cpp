// MPI point-to-point semantics: matching (any source, any tag, non-overtaking, collective tags kept apart), when
// sends and receives return under each protocol, waitany, test's injected delays, probe, sendrecv with oneself,
// computation on shared CPUs, and rank placement.
//
// Dates are computed by hand from the SMPI model on cluster4 (examples/replay-basic/cluster4.xml, see
// models_network_test.cpp for the formula): one isolated message of p payload bytes between two nodes takes
//   T(p) = 600e-6 * lf(p+16) + (p+16) / (125e6 * bf(p+16)):
//   T(0)     = 600e-6*2.01467 + 16/(125e6*0.812084)        = 0.00120895961916255
//   T(1000)  = 600e-6*1.9503  + 1016/(125e6*0.341987)      = 0.00119394698529476
//   T(12345) = 600e-6*2.59299 + 12361/(125e6*0.58729)      = 0.00172417418696045
//   T(1e6)   = 600e-6*11.6436 + 1000016/(125e6*0.940694)   = 0.0154906556170657
// With SMPI's defaults, payloads below 65536 B are detached (MPI_Send returns at once, data flows once the receive
// is posted) and larger ones use a rendezvous (MPI_Send returns when the data has arrived).
//
// Suite names start with "mpi" so that `ctest -R mpi` selects them.
#include "common/Errors.hpp"
#include "mpi/Placement.hpp"
#include "mpi/Rank.hpp"
#include "mpi/Simulation.hpp"
#include "mpi/collectives/Collectives.hpp"

#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace mpisim;
namespace fs = std::filesystem;

namespace {

#define EXPECT_DATE(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::abs(expected) + 1e-15)

constexpr double kT0 = 0.0012089596191625497;
constexpr double kT1000 = 0.0011939469852947626;
constexpr double kT12345 = 0.0017241741869604454;
constexpr double kT1e6 = 0.015490655617065698;

using testing_support::cluster4;
using testing_support::Scratch;

// Runs `main` on every rank of a job of `ranks` ranks on `platform` (SMPI model unless told otherwise).
void run(int ranks, const std::function<void(mpi::Rank&)>& main, const std::string& platform = cluster4(),
         const std::string& hostfile = "", const std::string& model = "smpi")
{
  mpi::SimulationOptions options;
  options.platform = platform;
  options.model = model;
  options.hostfile = hostfile;
  mpi::Simulation simulation(options, ranks);
  simulation.world().launch(main);
  simulation.engine().run();
}

// As run(), under the realistic polling rule, where MPI_Probe blocks until the message is there (under SimGrid's, the
// default of a World, it is a loop of growing iprobes: mpi_polling_test.cpp).
void run_realistic_polling(int ranks, const std::function<void(mpi::Rank&)>& main)
{
  mpi::SimulationOptions options;
  options.platform = cluster4();
  mpi::Simulation simulation(options, ranks);
  simulation.world().set_polling({.rule = mpi::PollingRule::Realistic});
  simulation.world().launch(main);
  simulation.engine().run();
}

double now(mpi::Rank& rank)
{
  return rank.world().engine().now();
}
const mpi::Communicator& world(mpi::Rank& rank)
{
  return rank.world().comm_world();
}

// ------------------------------------------------------------------------------------------------------------------
// Matching
// ------------------------------------------------------------------------------------------------------------------

// MPI_ANY_SOURCE takes whichever matching message was sent first: rank 2 sends at 0 (tag 7), rank 1 at 1 s (tag 8).
// A receive for a given source skips the others' messages.
TEST(mpi_p2p_matching, AnySourceTakesTheFirstMessageSent)
{
  std::vector<mpi::Status> got;
  run(3, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      got.push_back(rank.recv(world(rank), mpi::kAnySource, mpi::kAnyTag, 1000));
      got.push_back(rank.recv(world(rank), mpi::kAnySource, 8, 1000));
    } else if (rank.world_rank() == 1) {
      rank.sleep(1.0);
      rank.send(world(rank), 0, 8, 100);
    } else {
      rank.send(world(rank), 0, 7, 200);
    }
  });
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].source, 2);
  EXPECT_EQ(got[0].tag, 7);
  EXPECT_EQ(got[0].bytes, 200);
  EXPECT_EQ(got[1].source, 1);
  EXPECT_EQ(got[1].tag, 8);
  EXPECT_EQ(got[1].bytes, 100);
}

// A receive for tag 9 skips the earlier tag-5 message; MPI_ANY_TAG then takes the tag-5 one.
TEST(mpi_p2p_matching, TagsSelectAndAnyTagTakesTheOldest)
{
  std::vector<mpi::Status> got;
  run(2, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 1) {
      std::vector<mpi::RequestPtr> sends = {rank.isend(world(rank), 0, 5, 50), rank.isend(world(rank), 0, 9, 90)};
      rank.waitall(sends);
    } else {
      rank.sleep(1.0); // both messages are waiting, in sending order
      got.push_back(rank.recv(world(rank), 1, 9, 1000));
      got.push_back(rank.recv(world(rank), 1, mpi::kAnyTag, 1000));
    }
  });
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].tag, 9);
  EXPECT_EQ(got[0].bytes, 90);
  EXPECT_EQ(got[1].tag, 5);
  EXPECT_EQ(got[1].bytes, 50);
}

// Collective traffic uses negative tags, which MPI_ANY_TAG never matches: a wildcard receive posted while a
// collective message is waiting takes the later application message instead; the collective receive still gets its
// own.
TEST(mpi_p2p_matching, AnyTagNeverMatchesCollectiveTags)
{
  const int collective = mpi::collective_tag(mpi::Collective::Bcast);
  ASSERT_LT(collective, 0);
  std::vector<mpi::Status> got;
  run(2, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 1) {
      std::vector<mpi::RequestPtr> sends = {rank.isend(world(rank), 0, collective, 10),
                                            rank.isend(world(rank), 0, 3, 30)};
      rank.waitall(sends);
    } else {
      rank.sleep(1.0);
      got.push_back(rank.recv(world(rank), mpi::kAnySource, mpi::kAnyTag, 1000));
      got.push_back(rank.recv(world(rank), 1, collective, 1000));
    }
  });
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].tag, 3);
  EXPECT_EQ(got[0].bytes, 30);
  EXPECT_EQ(got[1].tag, collective);
  EXPECT_EQ(got[1].bytes, 10);
}

// Non-overtaking: two messages with the same source and tag match receives in sending order, even when the second
// is smaller and would arrive first. Checked with receives posted before the sends (SMPI: 100000 B rendezvous, then
// 10 B detached) and after both eager messages have arrived (hybrid: 60000 B then 10 B, both sent eagerly; the
// 10-B one lands first).
TEST(mpi_p2p_matching, SameSourceAndTagDoNotOvertake)
{
  const struct {
    const char* model;
    double large;
    bool receive_late;
  } cases[] = {{"smpi", 100000, false}, {"hybrid", 60000, true}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.model);
    const double large = c.large;
    const bool receive_late = c.receive_late;
    std::vector<double> sizes;
    run(
        2,
        [&](mpi::Rank& rank) {
          if (rank.world_rank() == 1) {
            std::vector<mpi::RequestPtr> sends = {rank.isend(world(rank), 0, 5, large),
                                                  rank.isend(world(rank), 0, 5, 10)};
            rank.waitall(sends);
          } else {
            if (receive_late)
              rank.sleep(1.0);
            std::vector<mpi::RequestPtr> receives = {rank.irecv(world(rank), mpi::kAnySource, mpi::kAnyTag, 1e6),
                                                     rank.irecv(world(rank), 1, 5, 1e6)};
            rank.waitall(receives);
            for (const auto& receive : receives)
              sizes.push_back(receive->status.bytes);
          }
        },
        cluster4(), "", c.model);
    EXPECT_EQ(sizes, (std::vector<double>{large, 10}));
  }
}

// ------------------------------------------------------------------------------------------------------------------
// When calls return
// ------------------------------------------------------------------------------------------------------------------

// Rank 1 posts its receive at 1 s. A detached send (1000 B) returns at 0 and its data moves from 1 s on: the receive
// ends at 1 + T(1000) = 1.00119394698529. A rendezvous send (1e6 B) is held until the data has arrived: both return
// at 1 + T(1e6) = 1.01549065561707.
TEST(mpi_p2p_protocols, DetachedSendReturnsAtOnceRendezvousSendWaits)
{
  const struct {
    double bytes, send_returns, receive_returns;
  } cases[] = {{1000, 0.0, 1.0 + kT1000}, {1e6, 1.0 + kT1e6, 1.0 + kT1e6}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.bytes);
    const double bytes = c.bytes;
    double sent = -1, received = -1;
    run(2, [&](mpi::Rank& rank) {
      if (rank.world_rank() == 0) {
        rank.send(world(rank), 1, 0, bytes);
        sent = now(rank);
      } else {
        rank.sleep(1.0);
        rank.recv(world(rank), 0, 0, bytes);
        received = now(rank);
      }
    });
    EXPECT_DATE(sent, c.send_returns);
    EXPECT_DATE(received, c.receive_returns);
  }
}

// waitany returns the first request to complete, not the first in the list: rank 0 receives 1e6 B from rank 1
// (index 0) and 1000 B from rank 2 (index 1); the small one ends at T(1000) = 0.00119394698529476, before the large
// one's latency (600e-6*11.6436 = 0.00698616) is even paid, so the two never share node-0's downlink and the large
// one ends at T(1e6) = 0.0154906556170657.
TEST(mpi_p2p_protocols, WaitanyReturnsTheFirstCompleted)
{
  size_t first = 99;
  double first_date = -1, second_date = -1;
  run(3, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      std::vector<mpi::RequestPtr> receives = {rank.irecv(world(rank), 1, 0, 1e6), rank.irecv(world(rank), 2, 0, 1000)};
      first = rank.waitany(receives);
      first_date = now(rank);
      rank.wait(*receives[0]);
      second_date = now(rank);
    } else {
      rank.send(world(rank), 0, 0, rank.world_rank() == 1 ? 1e6 : 1000);
    }
  });
  EXPECT_EQ(first, 1u);
  EXPECT_DATE(first_date, kT1000);
  EXPECT_DATE(second_date, kT1e6);
}

// Each MPI_Test sleeps n * 1e-4 s, n growing by one after each failure and back to 1 after a success (SimGrid's
// smpi/test with smpi/grow-injected-times), so polling loops let the clock advance. The 0-B message ends at
// T(0) = 0.00120895961916255; tests end at 1e-4, 3e-4, 6e-4, 1e-3 (all failed), 1.5e-3 (success); the next test
// costs 1e-4 again: 1.6e-3.
TEST(mpi_p2p_protocols, TestInjectsGrowingDelays)
{
  std::vector<std::pair<double, bool>> tests;
  run(2, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      rank.send(world(rank), 1, 0, 0);
      return;
    }
    mpi::RequestPtr receive = rank.irecv(world(rank), 0, 0, 0);
    bool done = false;
    while (not done) {
      done = rank.test(*receive);
      tests.emplace_back(now(rank), done);
    }
    tests.emplace_back(now(rank), rank.test(*receive));
  });
  ASSERT_EQ(tests.size(), 6u);
  const double dates[] = {1e-4, 3e-4, 6e-4, 1e-3, 1.5e-3, 1.6e-3};
  for (size_t i = 0; i < tests.size(); ++i) {
    EXPECT_DATE(tests[i].first, dates[i]) << "test #" << i;
    EXPECT_EQ(tests[i].second, i >= 4) << "test #" << i;
  }
  EXPECT_LT(1e-3, kT0); // the fourth test fails, the fifth succeeds
  EXPECT_LT(kT0, 1.5e-3);
}

// probe blocks until a matching message has been sent (not transferred) and tells its source, tag and size without
// receiving it: rank 0 sends 12345 B with tag 3 at 0.5 s; both probes return at 0.5 s; the receive then takes the
// data, which (detached) flows from 0.5 s: 0.5 + T(12345) = 0.50172417418696.
TEST(mpi_p2p_protocols, ProbeLearnsTheSize)
{
  std::vector<std::pair<double, mpi::Status>> probes;
  double received = -1;
  mpi::Status status;
  run_realistic_polling(2, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      rank.sleep(0.5);
      rank.send(world(rank), 1, 3, 12345);
      return;
    }
    probes.emplace_back(0, rank.probe(world(rank), mpi::kAnySource, mpi::kAnyTag));
    probes.back().first = now(rank);
    probes.emplace_back(0, rank.probe(world(rank), 0, 3)); // not consumed by the first probe
    probes.back().first = now(rank);
    status = rank.recv(world(rank), probes.back().second.source, probes.back().second.tag, probes.back().second.bytes);
    received = now(rank);
  });
  ASSERT_EQ(probes.size(), 2u);
  for (const auto& [date, probed] : probes) {
    EXPECT_DATE(date, 0.5);
    EXPECT_EQ(probed.source, 0);
    EXPECT_EQ(probed.tag, 3);
    EXPECT_EQ(probed.bytes, 12345);
  }
  EXPECT_EQ(status.bytes, 12345);
  EXPECT_FALSE(status.truncated);
  EXPECT_DATE(received, 0.5 + kT12345);
}

// A rank exchanging with itself copies locally: no message, no time.
TEST(mpi_p2p_protocols, SendrecvWithSelfIsLocal)
{
  mpi::Status status;
  double date = -1;
  size_t unexpected = 99, posted = 99;
  run(2, [&](mpi::Rank& rank) {
    if (rank.world_rank() != 1)
      return;
    status = rank.sendrecv(world(rank), 1, 4, 100, 1, 4, 100);
    date = now(rank);
    unexpected = rank.world().mailbox(1).unexpected_count();
    posted = rank.world().mailbox(1).posted_count();
  });
  EXPECT_EQ(date, 0.0);
  EXPECT_EQ(status.source, 1);
  EXPECT_EQ(status.tag, 4);
  EXPECT_EQ(status.bytes, 100);
  EXPECT_EQ(unexpected, 0u);
  EXPECT_EQ(posted, 0u);
}

// ------------------------------------------------------------------------------------------------------------------
// Computation
// ------------------------------------------------------------------------------------------------------------------

// time = flops / speed: 1e9 flops on a 1 Gf host take 1 s. Two ranks on one single-core host share it: each runs at
// 0.5 Gf while both compute. 1e9 and 5e8 flops: the 5e8 one ends at 5e8/0.5e9 = 1 s, the other has 5e8 left, done
// alone at 1 Gf: 1.5 s. 1e9 each: 2 s each. On a two-core host each gets its own core: 1 s each.
TEST(mpi_p2p_compute, ComputationsShareTheHostsCores)
{
  Scratch scratch;
  const std::string both_on_node0 = scratch.write("hostfile", "node-0:2\n");
  auto finish = [&](double flops0, double flops1, const std::string& platform, const std::string& hostfile) {
    std::vector<double> ends(2, -1);
    run(
        2,
        [&](mpi::Rank& rank) {
          rank.compute(rank.world_rank() == 0 ? flops0 : flops1);
          ends[rank.world_rank()] = now(rank);
        },
        platform, hostfile);
    return ends;
  };
  const auto apart = finish(1e9, 2e9, cluster4(), "");
  EXPECT_DATE(apart[0], 1.0);
  EXPECT_DATE(apart[1], 2.0);
  const auto unequal = finish(1e9, 5e8, cluster4(), both_on_node0);
  EXPECT_DATE(unequal[0], 1.5);
  EXPECT_DATE(unequal[1], 1.0);
  const auto equal = finish(1e9, 1e9, cluster4(), both_on_node0);
  EXPECT_DATE(equal[0], 2.0);
  EXPECT_DATE(equal[1], 2.0);
  const auto dual_core = finish(1e9, 1e9, "cluster:1,cores=2", "");
  EXPECT_DATE(dual_core[0], 1.0);
  EXPECT_DATE(dual_core[1], 1.0);
}

// ------------------------------------------------------------------------------------------------------------------
// Placement
// ------------------------------------------------------------------------------------------------------------------

std::vector<std::string> host_names(const platform::Platform& platform, const std::vector<platform::HostId>& hosts)
{
  std::vector<std::string> names;
  for (platform::HostId id : hosts)
    names.push_back(platform.hosts()[id].name);
  return names;
}

// Platform order: rank i on the i-th declared host, wrapping around. Sorted: host names sorted as strings, as
// smpirun does, so rank 2 lands on node-10.
TEST(mpi_p2p_placement, PlatformAndSortedOrdersWrapAround)
{
  auto platform = mpi::load_or_generate_platform("cluster:12");
  using Names = std::vector<std::string>;
  EXPECT_EQ(host_names(*platform, mpi::place_ranks(*platform, 14, mpi::PlacementOrder::Platform)),
            (Names{"node-0", "node-1", "node-2", "node-3", "node-4", "node-5", "node-6", "node-7", "node-8", "node-9",
                   "node-10", "node-11", "node-0", "node-1"}));
  EXPECT_EQ(host_names(*platform, mpi::place_ranks(*platform, 14, mpi::PlacementOrder::Sorted)),
            (Names{"node-0", "node-1", "node-10", "node-11", "node-2", "node-3", "node-4", "node-5", "node-6", "node-7",
                   "node-8", "node-9", "node-0", "node-1"}));
}

// Hostfile: one host per line, "host:N" for N slots, blank lines and '#' comments skipped, a last line without
// newline kept, wrap-around when the job has more ranks than slots.
TEST(mpi_p2p_placement, HostfileWithSlotCountsWrapsAround)
{
  Scratch scratch;
  auto platform = mpi::load_or_generate_platform("cluster:12");
  const std::string hostfile = scratch.write("hosts", "# two slots on node-3\nnode-3:2\n\n  node-10 \nnode-1 : 3");
  using Names = std::vector<std::string>;
  EXPECT_EQ(host_names(*platform, mpi::place_ranks_from_hostfile(*platform, 8, hostfile)),
            (Names{"node-3", "node-3", "node-10", "node-1", "node-1", "node-1", "node-3", "node-3"}));
}

// "host:N" is not expanded: a billion slots on node-0 place a 4-rank job on node-0 at once (it was a vector of a
// billion entries, a MemoryError), and a job longer than the file wraps around its entries.
TEST(mpi_p2p_placement, HugeSlotCountsAreNotExpanded)
{
  Scratch scratch;
  auto platform = mpi::load_or_generate_platform("cluster:4");
  using Names = std::vector<std::string>;
  const std::string huge = scratch.write("huge", "node-0:1000000000\nnode-1\n");
  EXPECT_EQ(host_names(*platform, mpi::place_ranks_from_hostfile(*platform, 4, huge)),
            (Names{"node-0", "node-0", "node-0", "node-0"}));
  const std::string entries = scratch.write("entries", "node-2:2\nnode-1\n");
  EXPECT_EQ(host_names(*platform, mpi::place_ranks_from_hostfile(*platform, 7, entries)),
            (Names{"node-2", "node-2", "node-1", "node-2", "node-2", "node-1", "node-2"}));
  EXPECT_EQ(mpi::hostfile_slots(mpi::read_hostfile(huge)), 1000000001);
}

TEST(mpi_p2p_placement, HostfileErrorsGiveFileAndLine)
{
  Scratch scratch;
  auto platform = mpi::load_or_generate_platform("cluster:4");
  auto failure = [&](const std::string& name, const std::string& text) -> InputError {
    const std::string path = scratch.write(name, text);
    try {
      mpi::place_ranks_from_hostfile(*platform, 4, path);
    } catch (const InputError& error) {
      EXPECT_EQ(error.file(), path);
      return error;
    }
    ADD_FAILURE() << "no error for " << name;
    return InputError("none");
  };
  const InputError unknown = failure("unknown", "node-0\n# comment\nnode-7\n");
  EXPECT_EQ(unknown.line(), 3);
  EXPECT_NE(std::string(unknown.what()).find(":3: unknown host 'node-7'"), std::string::npos) << unknown.what();
  const InputError count = failure("count", "node-0:0\n");
  EXPECT_EQ(count.line(), 1);
  EXPECT_NE(count.message().find("'0'"), std::string::npos) << count.what();
  const InputError huge = failure("huge", "node-0\nnode-1:99999999999999999999\n"); // was vector::_M_fill_insert
  EXPECT_EQ(huge.line(), 2);
  EXPECT_EQ(huge.message(), "slot count '99999999999999999999' is out of range (1 to 2147483647)");
  const InputError letters = failure("letters", "node-0:abc\n");
  EXPECT_EQ(letters.message(), "bad slot count 'abc' (expected host or host:N with N >= 1)");
  const InputError empty = failure("empty", "# nothing\n\n");
  EXPECT_NE(empty.message().find("no host"), std::string::npos) << empty.what();

  // Through the Simulation front door too.
  mpi::SimulationOptions options;
  options.platform = "cluster:4";
  options.hostfile = scratch.write("through", "node-1\nnowhere\n");
  try {
    mpi::Simulation simulation(options, 2);
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.line(), 2);
    EXPECT_NE(error.message().find("'nowhere'"), std::string::npos) << error.what();
  }
}

} // namespace

namespace {

// Typed point-to-point: a strided column of a 4x4 int matrix (vector type) sent to a contiguous array, and a
// contiguous array received into every other element (resized int, extent 8), under the three protocols of the
// hybrid model: eager (data copied at the send), detached and rendezvous (large messages, data read at delivery).
TEST(mpi_p2p_typed, DerivedTypesArePackedAndUnpacked)
{
  using namespace mpisim;
  for (int column_length : {4, 40000, 200000}) { // 16 B eager, 160 KB detached, 800 KB rendezvous under `hybrid`
    mpi::SimulationOptions options;
    options.platform = "cluster:2";
    options.model = "hybrid";
    mpi::Simulation simulation(options, 2);
    auto integer = mpi::Datatype::predefined(mpi::Element::Int);
    auto column = mpi::Datatype::vector(column_length, 1, 4, integer); // every 4th int
    auto spaced = mpi::Datatype::resized(integer, 0, 2 * sizeof(int)); // every other int
    std::vector<int> matrix(4 * column_length), received(column_length, -1), spread(2 * column_length, -1);
    for (size_t i = 0; i < matrix.size(); ++i)
      matrix[i] = static_cast<int>(i);
    auto& world = simulation.world();
    simulation.engine().spawn("rank 0", [&] {
      auto& rank = world.rank(0);
      auto first = rank.isend(world.comm_world(), 1, 1, matrix.data() + 1, 1, column); // column 1
      auto second = rank.isend(world.comm_world(), 1, 2, matrix.data(), column_length, integer);
      rank.wait(*first);
      rank.wait(*second);
    });
    simulation.engine().spawn("rank 1", [&] {
      auto& rank = world.rank(1);
      rank.sleep(1.0); // receives posted late: eager data has arrived already
      auto a = rank.irecv(world.comm_world(), 0, 1, received.data(), column_length, integer);
      auto b = rank.irecv(world.comm_world(), 0, 2, spread.data(), column_length, spaced);
      rank.wait(*a);
      rank.wait(*b);
    });
    simulation.engine().run();
    for (int i = 0; i < column_length; ++i) {
      ASSERT_EQ(received[i], 4 * i + 1) << "column_length " << column_length << " at " << i;
      ASSERT_EQ(spread[2 * i], i);
      ASSERT_EQ(spread[2 * i + 1], -1);
    }
  }
}

} // namespace
