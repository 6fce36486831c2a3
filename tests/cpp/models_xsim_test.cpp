// The xsim network model (XsimNetworkModel.cpp, docs/models.md "xsim"), rule by rule on hierarchies small enough to
// time by hand, and its traffic lists (TransmissionIntervals). Every comment gives the arithmetic; the assertions
// compare the simulated dates with it to 1e-9 (relative).
//
// Platforms are `hierarchy:` specs. Hosts (one rank each, rank r on the r-th host) are numbered in order: on
// hierarchy:2x2x2 rank 0 is c0.0.0, 1 c0.0.1, 2 c0.1.0, 3 c0.1.1, 4 c1.0.0, ... Every rank starts at date 0 and the
// ranks post in rank order at a given date. Notation: l0 (one-way latency), b (bandwidth) of the lowest network
// holding both ends, d = s / b, lr = 2 l0.
#include "models/TransmissionIntervals.hpp"
#include "mpi/Rank.hpp"
#include "mpi/Simulation.hpp"
#include "platform/Platform.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace mpisim;

namespace {

#define EXPECT_DATE(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::abs(expected) + 1e-15)

// Two nodes of two processors of two cores. Top: l0 = 10 us, b = 1e9 B/s; node: 2 us, 4e9 B/s; processor: 1 us,
// 8e9 B/s. Rendezvous from 10 MB on (none of the messages below) unless said otherwise.
std::string two_by_two_by_two(const std::string& contention = "no/no/no", const std::string& rdv = "10000000B")
{
  return "hierarchy:2x2x2,lat=10us/2us/1us,bw=1GBps/4GBps/8GBps,rdv=" + rdv + ",contention=" + contention;
}

// Runs `body` on every rank of `platform` under xsim; returns each rank's date when its body returned.
std::vector<double> run(const std::string& platform, int ranks, const std::function<void(mpi::Rank&)>& body,
                        std::vector<std::pair<std::string, std::string>> parameters = {})
{
  mpi::SimulationOptions options;
  options.platform = platform;
  options.model = "xsim";
  options.model_parameters = std::move(parameters);
  mpi::Simulation simulation(options, ranks);
  std::vector<double> returns(static_cast<size_t>(ranks), -1);
  simulation.world().launch([&](mpi::Rank& rank) {
    body(rank);
    returns[static_cast<size_t>(rank.world_rank())] = rank.world().engine().now();
  });
  simulation.engine().run();
  return returns;
}

const mpi::Communicator& world(mpi::Rank& rank)
{
  return rank.world().comm_world();
}

// --- traffic lists ---------------------------------------------------------------------------------------------

// Busy [1, 2] and [3, 4]. A transmission of 2 s wanted from 0.5 fills [0.5, 1], [2, 3] and [4, 4.5]: tt2 = 4.5 and
// tt1 = tt2 - 2 = 2.5. One wanted from 5 passes untouched; one wanted inside [1, 2] moves to its end.
TEST(models_xsim_intervals, FragmentsIntoTheFirstFreeRoom)
{
  models::TransmissionIntervals list;
  EXPECT_DATE(list.insert(1, 1).last_byte, 2);
  EXPECT_DATE(list.insert(3, 1).first_byte, 3);
  const models::Transmission fragmented = list.insert(0.5, 2);
  EXPECT_DATE(fragmented.first_byte, 2.5);
  EXPECT_DATE(fragmented.last_byte, 4.5);
  // The fragments merged with what they touch: one busy interval [0.5, 4.5].
  ASSERT_EQ(list.size(), 1u);
  EXPECT_DATE(list.intervals()[0].start, 0.5);
  EXPECT_DATE(list.intervals()[0].end, 4.5);
  const models::Transmission later = list.insert(5, 1);
  EXPECT_DATE(later.first_byte, 5);
  const models::Transmission moved = list.insert(1, 0.25);
  EXPECT_DATE(moved.first_byte, 4.5);
  EXPECT_DATE(moved.last_byte, 4.75);
  // A transmission of no duration passes at the first free instant and keeps nothing.
  const models::Transmission empty = list.insert(2, 0);
  EXPECT_DATE(empty.first_byte, 4.75);
  EXPECT_EQ(list.size(), 2u);
}

// Pruning drops what ends at or before the date given, and nothing else.
TEST(models_xsim_intervals, PruneDropsWhatEveryRankHasPassed)
{
  models::TransmissionIntervals list;
  list.insert(0, 1);
  list.insert(2, 1);
  list.prune(1);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_DATE(list.intervals()[0].start, 2);
  list.prune(2.5);
  EXPECT_EQ(list.size(), 1u);
}

// Against an obviously correct reference on random cases: time in unit slots, a transmission of d slots wanted from
// slot t takes the first d free slots from t on; its last byte is the end of the last one. Integer dates and
// durations keep the fast list's doubles exact.
TEST(models_xsim_intervals, AgreesWithASlotBySlotReference)
{
  std::mt19937 random(14);
  for (int round = 0; round < 200; ++round) {
    models::TransmissionIntervals list;
    std::vector<bool> busy(4096, false);
    for (int i = 0; i < 30; ++i) {
      const int start = static_cast<int>(random() % 200);
      const int duration = static_cast<int>(random() % 20);
      int slot = start;
      int left = duration;
      int last = start;
      int first_free = start; // a transmission of no duration: the end of the busy run holding `start`, if any
      while (busy[static_cast<size_t>(first_free)])
        ++first_free;
      for (; left > 0; ++slot) {
        if (not busy[static_cast<size_t>(slot)]) {
          busy[static_cast<size_t>(slot)] = true;
          --left;
          last = slot + 1;
        }
      }
      const models::Transmission placed = list.insert(start, duration);
      if (duration > 0) {
        ASSERT_EQ(placed.last_byte, last) << "round " << round << ", insertion " << i;
        ASSERT_EQ(placed.first_byte, last - duration);
      } else {
        ASSERT_EQ(placed.first_byte, first_free) << "round " << round << ", insertion " << i;
      }
    }
    // The list holds exactly the busy slots.
    std::vector<bool> listed(4096, false);
    for (const auto& interval : list.intervals())
      for (auto slot = static_cast<size_t>(interval.start); slot < static_cast<size_t>(interval.end); ++slot)
        listed[slot] = true;
    ASSERT_EQ(listed, busy) << "round " << round;
  }
}

// --- Sec. 3.1: one message, serialization at both ends, t_post, rendezvous --------------------------------------

// Rank 0 (node 0) sends 1e6 B to rank 4 (node 1): top network, l0 = 10 us, b = 1e9 B/s, d = 1e-3.
//   ts1 = 0, ts2 = 1e-3 (the blocking send returns then), tr1 = 1e-5, tr2 = 1.01e-3 (the receive returns then).
TEST(models_xsim, OneMessage)
{
  const auto returns = run(two_by_two_by_two(), 8, [](mpi::Rank& rank) {
    if (rank.world_rank() == 0)
      rank.send(world(rank), 4, 0, 1e6);
    else if (rank.world_rank() == 4)
      rank.recv(world(rank), 0, 0, 1e6);
  });
  EXPECT_DATE(returns[0], 1e-3);
  EXPECT_DATE(returns[4], 1.01e-3);
}

// Rank 0 isends 1e6 B to rank 4, then to rank 6 (both top network, d = 1e-3). Source serialization: the second
// starts at t_previous_s2 = 1e-3: ts = [1e-3, 2e-3]. Rank 0's waitall returns at 2e-3; rank 4 at 1.01e-3, rank 6 at
// 2e-3 + 1e-5 = 2.01e-3.
TEST(models_xsim, TwoFromOneSource)
{
  const auto returns = run(two_by_two_by_two(), 8, [](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      std::vector<mpi::RequestPtr> sends = {rank.isend(world(rank), 4, 0, 1e6), rank.isend(world(rank), 6, 0, 1e6)};
      rank.waitall(sends);
    } else if (rank.world_rank() == 4 || rank.world_rank() == 6) {
      rank.recv(world(rank), 0, 0, 1e6);
    }
  });
  EXPECT_DATE(returns[0], 2e-3);
  EXPECT_DATE(returns[4], 1.01e-3);
  EXPECT_DATE(returns[6], 2.01e-3);
}

// The model makes each rank's lanes of dated ends when the rank first needs one, lowest ranks first, and finds them by
// rank: rank 1's two sends put ends in its lane (queued in the engine) before rank 6's send makes the lanes of ranks 2
// to 6, which must leave rank 1's in place. All cross the top network (d = 1e-3, l0 = 1e-5): rank 1's sends go
// [0, 1e-3] and [1e-3, 2e-3] (source serialization), rank 6's [0, 1e-3]; each receiver returns l0 after its message.
TEST(models_xsim, LanesMadeLaterLeaveQueuedOnesInPlace)
{
  const auto returns = run(two_by_two_by_two(), 8, [](mpi::Rank& rank) {
    const int me = rank.world_rank();
    if (me == 1) {
      std::vector<mpi::RequestPtr> sends = {rank.isend(world(rank), 5, 0, 1e6), rank.isend(world(rank), 4, 0, 1e6)};
      rank.waitall(sends);
    } else if (me == 6) {
      rank.send(world(rank), 2, 0, 1e6);
    } else if (me == 4 || me == 5) {
      rank.recv(world(rank), 1, 0, 1e6);
    } else if (me == 2) {
      rank.recv(world(rank), 6, 0, 1e6);
    }
  });
  EXPECT_DATE(returns[1], 2e-3);
  EXPECT_DATE(returns[6], 1e-3);
  EXPECT_DATE(returns[5], 1.01e-3);
  EXPECT_DATE(returns[4], 2.01e-3);
  EXPECT_DATE(returns[2], 1.01e-3);
}

// Ranks 0 and 2 (node 0) each send 1e6 B to rank 4: both tr = [1e-5, 1.01e-3]; no contention, so the senders return
// at 1e-3. Rank 4 matches rank 0's message first: [1e-5, 1.01e-3], t_previous_r2 = 1.01e-3; then rank 2's: tr1 moves
// to 1.01e-3, tr2 to 2.01e-3. Rank 4's waitall returns at 2.01e-3.
TEST(models_xsim, TwoToOneDestination)
{
  const auto returns = run(two_by_two_by_two(), 8, [](mpi::Rank& rank) {
    if (rank.world_rank() == 0 || rank.world_rank() == 2) {
      rank.send(world(rank), 4, 0, 1e6);
    } else if (rank.world_rank() == 4) {
      std::vector<mpi::RequestPtr> receives = {rank.irecv(world(rank), 0, 0, 1e6), rank.irecv(world(rank), 2, 0, 1e6)};
      rank.waitall(receives);
    }
  });
  EXPECT_DATE(returns[0], 1e-3);
  EXPECT_DATE(returns[2], 1e-3);
  EXPECT_DATE(returns[4], 2.01e-3);
}

// t_post: rank 4 posts its receive at 5e-3, long after the data came (tr = [1e-5, 1.01e-3]): tr1 moves to 5e-3 and
// tr2 to 5e-3 + 1e-3 = 6e-3. The sender is not held: it returns at ts2 = 1e-3.
TEST(models_xsim, LateReceiveTakesTheTransmissionTimeFromItsPost)
{
  const auto returns = run(two_by_two_by_two(), 8, [](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      rank.send(world(rank), 4, 0, 1e6);
    } else if (rank.world_rank() == 4) {
      rank.sleep(5e-3);
      rank.recv(world(rank), 0, 0, 1e6);
    }
  });
  EXPECT_DATE(returns[0], 1e-3);
  EXPECT_DATE(returns[4], 6e-3);
}

// Rendezvous (threshold 1e6 B, the message 1e6 B): ts1 = 0 + lr = 2e-5, ts2 = 1.02e-3, tr = [3e-5, 1.03e-3]. With
// the receive posted at 5e-3: the sender still returns at 1.02e-3 (xSim's sender never waits for the receiver), the
// receive at 5e-3 + 1e-3 = 6e-3.
TEST(models_xsim, RendezvousAddsTheRoundTripLatency)
{
  for (const double receive_at : {0.0, 5e-3}) {
    SCOPED_TRACE("receive posted at " + std::to_string(receive_at));
    const auto returns = run(two_by_two_by_two("no/no/no", "1000000B"), 8, [&](mpi::Rank& rank) {
      if (rank.world_rank() == 0) {
        rank.send(world(rank), 4, 0, 1e6);
      } else if (rank.world_rank() == 4) {
        rank.sleep(receive_at);
        rank.recv(world(rank), 0, 0, 1e6);
      }
    });
    EXPECT_DATE(returns[0], 1.02e-3);
    EXPECT_DATE(returns[4], receive_at > 0 ? 6e-3 : 1.03e-3);
  }
}

// A synchronous send completes only once matched (MPI), so it is timed from its match, as a rendezvous at any size.
// Rank 4 posts at 5e-3: ts1 = 5e-3 + lr = 5.02e-3, ts2 = 6.02e-3 (the sender returns), tr = [5.03e-3, 6.03e-3]
// (the receiver returns at 6.03e-3).
TEST(models_xsim, SynchronousSendIsTimedFromItsMatch)
{
  const auto returns = run(two_by_two_by_two(), 8, [](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      rank.send(world(rank), 4, 0, 1e6, nullptr, mpi::SendMode::Synchronous);
    } else if (rank.world_rank() == 4) {
      rank.sleep(5e-3);
      rank.recv(world(rank), 0, 0, 1e6);
    }
  });
  EXPECT_DATE(returns[0], 6.02e-3);
  EXPECT_DATE(returns[4], 6.03e-3);
}

// The threshold is the lowest common network's: rdv = 10 MB at the top, 1 kB inside a node. 2000 B from rank 0 to
// rank 1 (same processor: l0 = 1 us, b = 8e9 B/s, d = 2.5e-7) is a rendezvous: ts1 = 2e-6, ts2 = 2.25e-6,
// tr2 = 3.25e-6. The same 2000 B to rank 4 (top: d = 2e-6) is eager: tr2 = 2e-6 + 1e-5 = 1.2e-5.
TEST(models_xsim, RendezvousThresholdPerLevel)
{
  const std::string platform =
      "hierarchy:2x2x2,lat=10us/2us/1us,bw=1GBps/4GBps/8GBps,rdv=10000000B/1000B/1000B,contention=no/no/no";
  const auto returns = run(platform, 8, [](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      rank.send(world(rank), 1, 0, 2000);
    } else if (rank.world_rank() == 1) {
      rank.recv(world(rank), 0, 0, 2000);
    } else if (rank.world_rank() == 2) {
      rank.send(world(rank), 4, 0, 2000);
    } else if (rank.world_rank() == 4) {
      rank.recv(world(rank), 2, 0, 2000);
    }
  });
  EXPECT_DATE(returns[0], 2.25e-6);
  EXPECT_DATE(returns[1], 3.25e-6);
  EXPECT_DATE(returns[2], 2e-6);
  EXPECT_DATE(returns[4], 1.2e-5);
}

// --- Sec. 4.1: contention at access points ---------------------------------------------------------------------

// Two nodes of four cores (top: 10 us, 1e9 B/s; node: 1 us, 8e9 B/s; rendezvous from 10 MB). Ranks 0-3 each send 1e6 B
// to rank 4 + i at date 0 (d = 1e-3 each).
//   Without contention: every ts = [0, 1e-3], tr = [1e-5, 1.01e-3]: senders return at 1e-3, receivers at 1.01e-3.
//   With contention on the node level: node 0's outgoing list takes them one after the other: [0, 1e-3],
//   [1e-3, 2e-3], [2e-3, 3e-3], [3e-3, 4e-3]; the senders return at those ends, and node 1's incoming list has no
//   conflict left: receiver 4 + i returns at (i + 1) 1e-3 + 1e-5.
TEST(models_xsim, FourRanksOfANodeSendingOut)
{
  for (const std::string contention : {"no/no", "no/yes"}) {
    SCOPED_TRACE("contention=" + contention);
    const auto returns =
        run("hierarchy:2x4,lat=10us/1us,bw=1GBps/8GBps,rdv=10MB,contention=" + contention, 8, [](mpi::Rank& rank) {
          const int r = rank.world_rank();
          if (r < 4)
            rank.send(world(rank), r + 4, 0, 1e6);
          else
            rank.recv(world(rank), r - 4, 0, 1e6);
        });
    for (int i = 0; i < 4; ++i) {
      const double end = contention == "no/no" ? 1e-3 : (i + 1) * 1e-3;
      EXPECT_DATE(returns[static_cast<size_t>(i)], end);
      EXPECT_DATE(returns[static_cast<size_t>(i + 4)], end + 1e-5);
    }
  }
  // The `contention` parameter turns the platform's contention off.
  const auto off = run("hierarchy:2x4,lat=10us/1us,bw=1GBps/8GBps,rdv=10MB,contention=no/yes", 8,
                       [](mpi::Rank& rank) {
                         const int r = rank.world_rank();
                         if (r < 4)
                           rank.send(world(rank), r + 4, 0, 1e6);
                         else
                           rank.recv(world(rank), r - 4, 0, 1e6);
                       },
                       {{"contention", "no"}});
  EXPECT_DATE(off[3], 1e-3);
}

// Incoming contention: three nodes of two cores, contention on the node level. Rank 0 (node 0) and rank 2 (node 1)
// each send 1e6 B to node 2 (ranks 4 and 5). Their outgoing lists are different: both senders return at 1e-3. Node
// 2's incoming list takes rank 0's message [0, 1e-3], then moves rank 2's to [1e-3, 2e-3]: rank 4 returns at
// 1.01e-3, rank 5 at 2.01e-3.
TEST(models_xsim, MessagesIntoANodeShareItsAccessPoint)
{
  const auto returns =
      run("hierarchy:3x2,lat=10us/1us,bw=1GBps/8GBps,rdv=10MB,contention=no/yes", 6, [](mpi::Rank& rank) {
        const int r = rank.world_rank();
        if (r == 0)
          rank.send(world(rank), 4, 0, 1e6);
        else if (r == 2)
          rank.send(world(rank), 5, 0, 1e6);
        else if (r == 4)
          rank.recv(world(rank), 0, 0, 1e6);
        else if (r == 5)
          rank.recv(world(rank), 2, 0, 1e6);
      });
  EXPECT_DATE(returns[0], 1e-3);
  EXPECT_DATE(returns[2], 1e-3);
  EXPECT_DATE(returns[4], 1.01e-3);
  EXPECT_DATE(returns[5], 2.01e-3);
}

// A message crossing levels, contention on the node and processor levels. Rank 0 (c0.0.0) first sends 1e6 B to
// rank 2 (c0.1.0): node network, l0 = 2 us, b = 4e9 B/s, d = 2.5e-4; it crosses processor 0.0's outgoing list
// [0, 2.5e-4] and processor 0.1's incoming list; rank 2 returns at 2.5e-4 + 2e-6 = 2.52e-4. Then rank 1 (c0.0.1)
// sends 1e6 B to rank 4 (c1.0.0): top network, d = 1e-3. Processor 0.0's outgoing list moves it to [2.5e-4, 1.25e-3];
// node 0's outgoing, node 1's and processor 1.0's incoming lists are free from there. Rank 1 returns at 1.25e-3,
// rank 4 at 1.25e-3 + 1e-5 = 1.26e-3. Without contention, rank 4 would return at 1.01e-3.
TEST(models_xsim, MessageCrossingLevels)
{
  const auto returns = run(two_by_two_by_two("no/yes/yes"), 8, [](mpi::Rank& rank) {
    const int r = rank.world_rank();
    if (r == 0)
      rank.send(world(rank), 2, 0, 1e6);
    else if (r == 1)
      rank.send(world(rank), 4, 0, 1e6);
    else if (r == 2)
      rank.recv(world(rank), 0, 0, 1e6);
    else if (r == 4)
      rank.recv(world(rank), 1, 0, 1e6);
  });
  EXPECT_DATE(returns[0], 2.5e-4);
  EXPECT_DATE(returns[2], 2.52e-4);
  EXPECT_DATE(returns[1], 1.25e-3);
  EXPECT_DATE(returns[4], 1.26e-3);
}

// --- Sec. 4.2: bandwidth capacity ------------------------------------------------------------------------------

// Six cores in one network (l0 = 1 us, b = 1e9 B/s). Ranks 0, 2, 4 send 1e6 B (d = 1e-3) to ranks 1, 3, 5 at date
// 0. With capacity c = 2e9 B/s, each takes d b / c = 5e-4 of the transfer list: [0, 5e-4], [5e-4, 1e-3],
// [1e-3, 1.5e-3]; unscaled from their starts: ts = [0, 1e-3], [5e-4, 1.5e-3], [1e-3, 2e-3]. Senders return at 1e-3,
// 1.5e-3, 2e-3; receivers 1 us later. With c = b, they go one after the other: 1e-3, 2e-3, 3e-3.
TEST(models_xsim, CapacityScalesByBOverC)
{
  for (const double capacity : {2e9, 1e9}) {
    SCOPED_TRACE("capacity " + std::to_string(capacity));
    const auto returns =
        run("hierarchy:6,lat=1us,bw=1GBps,rdv=10MB,capacity=" + std::to_string(capacity / 1e9) + "GBps", 6,
            [](mpi::Rank& rank) {
              const int r = rank.world_rank();
              if (r % 2 == 0)
                rank.send(world(rank), r + 1, 0, 1e6);
              else
                rank.recv(world(rank), r - 1, 0, 1e6);
            });
    const double step = 1e-3 * 1e9 / capacity;
    for (int i = 0; i < 3; ++i) {
      EXPECT_DATE(returns[static_cast<size_t>(2 * i)], 1e-3 + i * step);
      EXPECT_DATE(returns[static_cast<size_t>(2 * i + 1)], 1e-3 + i * step + 1e-6);
    }
  }
}

// --- the hierarchy platform ------------------------------------------------------------------------------------

// The spec's structure: 2 x 2 x 2 = 8 hosts in order; the zones of c1.0.1 are the root, node 1, processor 1.0.
TEST(models_xsim_platform, HierarchySpecNestsZones)
{
  auto platform = platform::generate_platform(two_by_two_by_two());
  ASSERT_EQ(platform->hosts().size(), 8u);
  EXPECT_EQ(platform->hosts()[5].name, "c1.0.1");
  const auto zones = platform->zones_of(5);
  ASSERT_EQ(zones.size(), 3u);
  // Routes for the flow models: within a processor 2 x 0.5 us; across nodes 10 us (the up links carry the rest).
  std::vector<platform::LinkId> links;
  double latency = 0;
  platform->route(4, 5, links, latency);
  EXPECT_DATE(latency, 1e-6);
  platform->route(0, 4, links, latency);
  EXPECT_DATE(latency, 1e-5);
}

} // namespace
