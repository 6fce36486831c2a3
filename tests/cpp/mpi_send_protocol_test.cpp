// The send-protocol decision (SendProtocol.hpp), rule by rule, on thresholds chosen by hand: eager below 1000 bytes,
// detached below 5000, rendezvous from 5000 on.
#include "mpi/SendProtocol.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace mpisim;
using models::Protocol;
using mpi::PostOverhead;
using mpi::SendMode;

namespace {

constexpr models::ProtocolThresholds kThresholds{1000, 5000};

mpi::SendProtocol choose(SendMode mode, bool blocking, double payload)
{
  return mpi::choose_send_protocol(mode, blocking, payload, kThresholds);
}

} // namespace

// Rule 1: the bounds are exclusive: 999 eager, 1000 detached, 4999 detached, 5000 rendezvous.
TEST(mpi_send_protocol, StandardSendFollowsTheSize)
{
  EXPECT_EQ(choose(SendMode::Standard, false, 0).protocol, Protocol::Eager);
  EXPECT_EQ(choose(SendMode::Standard, false, 999).protocol, Protocol::Eager);
  EXPECT_EQ(choose(SendMode::Standard, false, 1000).protocol, Protocol::Detached);
  EXPECT_EQ(choose(SendMode::Standard, false, 4999).protocol, Protocol::Detached);
  EXPECT_EQ(choose(SendMode::Standard, false, 5000).protocol, Protocol::Rendezvous);
  // Only a rendezvous holds the sender.
  EXPECT_FALSE(choose(SendMode::Standard, true, 999).holds_sender);
  EXPECT_FALSE(choose(SendMode::Standard, true, 1000).holds_sender);
  EXPECT_TRUE(choose(SendMode::Standard, true, 5000).holds_sender);
}

// Rule 2: synchronous is a rendezvous at every size.
TEST(mpi_send_protocol, SynchronousSendIsAlwaysARendezvous)
{
  for (double payload : {0.0, 999.0, 1000.0, 5000.0, 1e9}) {
    const mpi::SendProtocol chosen = choose(SendMode::Synchronous, true, payload);
    EXPECT_EQ(chosen.protocol, Protocol::Rendezvous) << payload;
    EXPECT_TRUE(chosen.holds_sender) << payload;
  }
}

// Rule 3 and 5: buffered keeps eager and detached, turns a rendezvous size into detached, and always holds its
// request until the data has arrived.
TEST(mpi_send_protocol, BufferedSendNeverWaitsForTheReceiver)
{
  EXPECT_EQ(choose(SendMode::Buffered, true, 10).protocol, Protocol::Eager);
  EXPECT_EQ(choose(SendMode::Buffered, true, 2000).protocol, Protocol::Detached);
  EXPECT_EQ(choose(SendMode::Buffered, true, 1e6).protocol, Protocol::Detached);
  for (double payload : {10.0, 2000.0, 1e6})
    EXPECT_TRUE(choose(SendMode::Buffered, false, payload).holds_sender) << payload;
}

// Rule 4: non-blocking sends pay the isend overhead; blocking ones the send overhead unless their size calls for a
// rendezvous and they are not buffered. A small synchronous send still pays it.
TEST(mpi_send_protocol, OverheadBeforeThePost)
{
  EXPECT_EQ(choose(SendMode::Standard, false, 10).overhead, PostOverhead::Isend);
  EXPECT_EQ(choose(SendMode::Standard, false, 1e6).overhead, PostOverhead::Isend);
  EXPECT_EQ(choose(SendMode::Synchronous, false, 10).overhead, PostOverhead::Isend);
  EXPECT_EQ(choose(SendMode::Standard, true, 10).overhead, PostOverhead::Send);
  EXPECT_EQ(choose(SendMode::Standard, true, 2000).overhead, PostOverhead::Send);
  EXPECT_EQ(choose(SendMode::Standard, true, 1e6).overhead, PostOverhead::None);
  EXPECT_EQ(choose(SendMode::Synchronous, true, 10).overhead, PostOverhead::Send);
  EXPECT_EQ(choose(SendMode::Synchronous, true, 1e6).overhead, PostOverhead::None);
  EXPECT_EQ(choose(SendMode::Buffered, true, 1e6).overhead, PostOverhead::Send);
}

// An inclusive bound "k <= S" (hybrid, loggps) is the exclusive bound just above S: k = S is eager, the next double
// above S is not.
TEST(mpi_send_protocol, InclusiveBoundAsNextDouble)
{
  const double S = 65536;
  const models::ProtocolThresholds loggps{std::nextafter(S, std::numeric_limits<double>::infinity()),
                                          std::nextafter(S, std::numeric_limits<double>::infinity())};
  EXPECT_EQ(mpi::choose_send_protocol(SendMode::Standard, false, S, loggps).protocol, Protocol::Eager);
  EXPECT_EQ(mpi::choose_send_protocol(SendMode::Standard, false, std::nextafter(S, 1e9), loggps).protocol,
            Protocol::Rendezvous);
}

// Rule 6, under a model timed from the send (xsim): every transfer starts at the post except a synchronous send's
// (MPI lets it complete only once matched), and every send request waits for the model's release of the sender.
// The protocol itself still follows rules 1-3: 5000 bytes is a rendezvous, a buffered one detached.
TEST(mpi_send_protocol, TimedFromTheSend)
{
  constexpr models::ProtocolThresholds kTimed{5000, 5000, true};
  for (const double payload : {0.0, 4999.0, 5000.0}) {
    SCOPED_TRACE(payload);
    const mpi::SendProtocol standard = mpi::choose_send_protocol(SendMode::Standard, true, payload, kTimed);
    EXPECT_EQ(standard.protocol, payload < 5000 ? Protocol::Eager : Protocol::Rendezvous);
    EXPECT_TRUE(standard.starts_at_post);
    EXPECT_TRUE(standard.holds_sender);
    const mpi::SendProtocol synchronous = mpi::choose_send_protocol(SendMode::Synchronous, false, payload, kTimed);
    EXPECT_EQ(synchronous.protocol, Protocol::Rendezvous);
    EXPECT_FALSE(synchronous.starts_at_post);
    const mpi::SendProtocol buffered = mpi::choose_send_protocol(SendMode::Buffered, false, payload, kTimed);
    EXPECT_EQ(buffered.protocol, payload < 5000 ? Protocol::Eager : Protocol::Detached);
    EXPECT_TRUE(buffered.starts_at_post);
  }
  // Without the flag: only eager transfers start at the post.
  EXPECT_TRUE(choose(SendMode::Standard, false, 999).starts_at_post);
  EXPECT_FALSE(choose(SendMode::Standard, false, 1000).starts_at_post);
  EXPECT_FALSE(choose(SendMode::Standard, false, 5000).starts_at_post);
}
