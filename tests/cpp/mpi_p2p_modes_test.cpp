// MPI send modes and the point-to-point calls beyond send/receive: synchronous sends (MPI_Ssend, MPI_Issend),
// buffered sends (MPI_Bsend), cancellation (MPI_Cancel), matched probes (MPI_Mprobe/MPI_Mrecv) and testany.
//
// Dates are computed by hand from the SMPI model on cluster4, as in mpi_p2p_test.cpp: one isolated message of p
// payload bytes between two nodes takes
//   T(1000) = 600e-6*1.9503  + 1016/(125e6*0.341987)      = 0.00119394698529476
//   T(1e6)  = 600e-6*11.6436 + 1000016/(125e6*0.940694)   = 0.0154906556170657
// With SMPI's defaults, 1000 B is detached (a standard send returns at once) and 1e6 B uses a rendezvous; the send,
// isend and receive overheads are zero unless a test sets them.
#include "mpi/Rank.hpp"
#include "mpi/Simulation.hpp"

#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace mpisim;

namespace {

#define EXPECT_DATE(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::abs(expected) + 1e-15)

constexpr double kT1000 = 0.0011939469852947626;
constexpr double kT1e6 = 0.015490655617065698;

using Parameters = std::vector<std::pair<std::string, std::string>>;

// Polling calls cost what SimGrid's rule says unless told otherwise (mpi_polling_test.cpp).
void run(int ranks, const std::function<void(mpi::Rank&)>& main, Parameters parameters = {},
         mpi::PollingRule polling = mpi::PollingRule::Smpi)
{
  mpi::SimulationOptions options;
  options.platform = testing_support::cluster4();
  options.model_parameters = std::move(parameters);
  mpi::Simulation simulation(options, ranks);
  simulation.world().set_polling({.rule = polling});
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
// Synchronous sends
// ------------------------------------------------------------------------------------------------------------------

// Rank 1 posts its receive at 1 s. A synchronous send is carried as a rendezvous whatever its size (as SimGrid's
// MPI_REQ_SSEND, never detached): its data flows from the match, and the send returns when it has arrived, at
// 1 + T(p), where a standard 1000-B send (detached) returns at 0. At 1e6 B the model already uses a rendezvous:
// both modes give 1 + T(1e6).
TEST(mpi_p2p_modes, SynchronousSendReturnsOnlyAfterTheLateReceive)
{
  const struct {
    double bytes;
    mpi::SendMode mode;
    double send_returns, receive_returns;
  } cases[] = {{1000, mpi::SendMode::Standard, 0.0, 1.0 + kT1000},
               {1000, mpi::SendMode::Synchronous, 1.0 + kT1000, 1.0 + kT1000},
               {1e6, mpi::SendMode::Standard, 1.0 + kT1e6, 1.0 + kT1e6},
               {1e6, mpi::SendMode::Synchronous, 1.0 + kT1e6, 1.0 + kT1e6}};
  for (const auto& c : cases) {
    SCOPED_TRACE(std::to_string(c.bytes) + (c.mode == mpi::SendMode::Synchronous ? " synchronous" : " standard"));
    double sent = -1, received = -1;
    run(2, [&](mpi::Rank& rank) {
      if (rank.world_rank() == 0) {
        rank.send(world(rank), 1, 0, c.bytes, nullptr, c.mode);
        sent = now(rank);
      } else {
        rank.sleep(1.0);
        rank.recv(world(rank), 0, 0, c.bytes);
        received = now(rank);
      }
    });
    EXPECT_DATE(sent, c.send_returns);
    EXPECT_DATE(received, c.receive_returns);
  }
}

// With async-small-thresh = 65536 the model sends 1000 B eagerly: a standard message's data arrives at T(1000)
// before the receive (posted at 1 s) and the receive returns at 1 s. A synchronous send still waits for the match:
// its data flows from 1 s and both return at 1 + T(1000). Its CPU overhead follows the model: with os = 1 ms the
// blocking send spends 1 ms before posting (the receive is already waiting at 1 s, so the dates are unchanged), and
// with ois = 2 ms an Issend posted at 0 returns from the call at 2 ms.
TEST(mpi_p2p_modes, SynchronousSendIgnoresTheEagerProtocolButPaysTheModelsOverheads)
{
  for (const bool synchronous : {false, true}) {
    SCOPED_TRACE(synchronous ? "synchronous" : "standard");
    double sent = -1, received = -1, posted = -1;
    run(2,
        [&](mpi::Rank& rank) {
          if (rank.world_rank() == 0) {
            const auto mode = synchronous ? mpi::SendMode::Synchronous : mpi::SendMode::Standard;
            mpi::RequestPtr request =
                rank.isend(world(rank), 1, 0, nullptr, 1000, mpi::Datatype::predefined(mpi::Element::Byte), mode);
            posted = now(rank);
            rank.wait(*request);
            sent = now(rank);
          } else {
            rank.sleep(1.0);
            rank.recv(world(rank), 0, 0, 1000);
            received = now(rank);
          }
        },
        {{"async-small-thresh", "65536"}, {"os", "0:1e-3:0"}, {"ois", "0:2e-3:0"}});
    EXPECT_DATE(posted, 2e-3);
    EXPECT_DATE(sent, synchronous ? 1.0 + kT1000 : 2e-3);
    EXPECT_DATE(received, synchronous ? 1.0 + kT1000 : 1.0);
  }
}

// An Issend's request is not complete before the match, however long the sender polls: tests at 0.5 s fail; the
// request completes at 1 + T(1000).
TEST(mpi_p2p_modes, IssendIsIncompleteUntilMatched)
{
  bool early = true;
  double completed = -1;
  run(2, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      mpi::RequestPtr request = rank.isend(world(rank), 1, 0, nullptr, 1000,
                                           mpi::Datatype::predefined(mpi::Element::Byte), mpi::SendMode::Synchronous);
      rank.sleep(0.5);
      early = rank.test(*request);
      rank.wait(*request);
      completed = now(rank);
    } else {
      rank.sleep(1.0);
      rank.recv(world(rank), 0, 0, 1000);
    }
  });
  EXPECT_FALSE(early);
  EXPECT_DATE(completed, 1.0 + kT1000);
}

// ------------------------------------------------------------------------------------------------------------------
// Buffered sends
// ------------------------------------------------------------------------------------------------------------------

// A buffered send never waits: 1e6 B (a rendezvous size) returns at 0, carried detached; its request stands for the
// room in the attached buffer and completes when the data has arrived, at 1 + T(1e6), as the receive does. The
// data moved is the caller's at the time of the call (copied).
TEST(mpi_p2p_modes, BufferedSendReturnsAtOnceAndItsCopyLivesUntilArrival)
{
  double returned = -1, freed = -1, received = -1;
  std::vector<char> got(1000000, 0);
  run(2, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      std::vector<char> data(1000000, 'b');
      mpi::RequestPtr room = rank.bsend(world(rank), 1, 0, 1e6, data.data());
      returned = now(rank);
      std::memset(data.data(), 'x', data.size()); // the copy left with the message
      rank.wait(*room);
      freed = now(rank);
    } else {
      rank.sleep(1.0);
      rank.recv(world(rank), 0, 0, 1e6, got.data());
      received = now(rank);
    }
  });
  EXPECT_DATE(returned, 0.0);
  EXPECT_DATE(freed, 1.0 + kT1e6);
  EXPECT_DATE(received, 1.0 + kT1e6);
  EXPECT_EQ(got.front(), 'b');
  EXPECT_EQ(got.back(), 'b');
}

// ------------------------------------------------------------------------------------------------------------------
// Cancellation
// ------------------------------------------------------------------------------------------------------------------

// A receive nobody matched is cancelled at once (complete, cancelled); a detached send not yet received is taken
// back from the receiver's queue, so the receiver's later receive gets the next message (tag 0, 2 bytes) instead.
// A receive already matched cannot be cancelled.
TEST(mpi_p2p_modes, CancelTakesBackWhatIsNotMatched)
{
  bool receive_cancelled = false, send_cancelled = false, late = true;
  mpi::Status receive_status, send_status, got;
  run(2, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 0) {
      mpi::RequestPtr send = rank.isend(world(rank), 1, 0, 1000);
      send_cancelled = rank.cancel(*send);
      send_status = rank.wait(*send);
      rank.send(world(rank), 1, 0, 2);
    } else {
      mpi::RequestPtr receive = rank.irecv(world(rank), 0, 5, 10);
      receive_cancelled = rank.cancel(*receive);
      receive_status = rank.wait(*receive);
      rank.sleep(1.0);
      mpi::RequestPtr matched = rank.irecv(world(rank), 0, 0, 1000);
      got = rank.wait(*matched);
      late = rank.cancel(*matched);
    }
  });
  EXPECT_TRUE(receive_cancelled);
  EXPECT_TRUE(receive_status.cancelled);
  EXPECT_TRUE(send_cancelled);
  EXPECT_TRUE(send_status.cancelled);
  EXPECT_EQ(got.bytes, 2);
  EXPECT_FALSE(got.cancelled);
  EXPECT_FALSE(late);
}

// ------------------------------------------------------------------------------------------------------------------
// Matched probes, testany
// ------------------------------------------------------------------------------------------------------------------

// Rank 1 sends 100 B at 0.5 s and 200 B at 0.7 s, same tag. Rank 0's mprobe blocks until 0.5 s (realistic polling:
// under SimGrid's rule it would be a loop of growing improbes) and takes the first message; a wildcard receive
// posted next cannot match it and gets the second; mrecv then receives the first.
TEST(mpi_p2p_modes, MatchedProbeTakesTheMessageOutOfMatching)
{
  double probed_at = -1;
  mpi::Status other, claimed;
  run(
      2,
      [&](mpi::Rank& rank) {
        if (rank.world_rank() == 1) {
          rank.sleep(0.5);
          rank.send(world(rank), 0, 4, 100);
          rank.sleep(0.2);
          rank.send(world(rank), 0, 4, 200);
          return;
        }
        EXPECT_EQ(rank.improbe(world(rank), 1, 4), nullptr);
        mpi::MessagePtr message = rank.mprobe(world(rank), mpi::kAnySource, mpi::kAnyTag);
        probed_at = now(rank);
        other = rank.recv(world(rank), mpi::kAnySource, mpi::kAnyTag, 1000);
        mpi::RequestPtr receive = rank.mrecv(message, nullptr, 1000, mpi::Datatype::predefined(mpi::Element::Byte));
        claimed = rank.wait(*receive);
      },
      {}, mpi::PollingRule::Realistic);
  EXPECT_DATE(probed_at, 0.5);
  EXPECT_EQ(other.bytes, 200);
  EXPECT_EQ(claimed.bytes, 100);
  EXPECT_EQ(claimed.source, 1);
  EXPECT_EQ(claimed.tag, 4);
}

// testany costs one test delay (1e-4 s, growing after failures) for the whole set and names a completed request.
TEST(mpi_p2p_modes, TestanyTestsTheSetOnce)
{
  std::vector<std::pair<double, std::optional<size_t>>> tests;
  run(2, [&](mpi::Rank& rank) {
    if (rank.world_rank() == 1) {
      rank.sleep(2.5e-4);
      rank.send(world(rank), 0, 0, 0);
      return;
    }
    std::vector<mpi::RequestPtr> requests = {rank.irecv(world(rank), 1, 7, 0), rank.irecv(world(rank), 1, 0, 0)};
    rank.cancel(*requests[0]); // complete, so the first test succeeds at once
    tests.emplace_back(0, rank.testany(requests));
    tests.back().first = now(rank);
    requests[0] = nullptr;
    do {
      tests.emplace_back(0, rank.testany(requests));
      tests.back().first = now(rank);
    } while (not tests.back().second);
  });
  ASSERT_GE(tests.size(), 3u);
  EXPECT_EQ(tests[0].second, std::optional<size_t>(0));
  EXPECT_DATE(tests[0].first, 1e-4);
  EXPECT_FALSE(tests[1].second);
  EXPECT_DATE(tests[1].first, 2e-4);
  EXPECT_EQ(tests.back().second, std::optional<size_t>(1));
}

} // namespace
