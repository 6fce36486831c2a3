// The packet model (`--model packet`: PacketNetwork.hpp, PacketNetworkModel.cpp, docs/models.md "packet") on routes
// small enough to follow packet by packet. Each comment gives the arithmetic; the assertions compare the simulated
// dates with it to 1e-9 (relative).
//
// Notation: P packet size, n packets, a link's T = P / bw (time to send one packet) and lat; the window
// W = max(1, ceil(B D / P)) with B the route's smallest bandwidth and D = sum(lat + P / bw). A packet that reaches a
// node at t leaves on the next link at max(t, the date that link's output is free), is sent for T and reaches the
// next node lat later. Most routes below use P = 1000 B and links of 1e6 B/s (T = 1 ms).
#include "kernel/Engine.hpp"
#include "models/NetworkModel.hpp"
#include "models/PacketNetwork.hpp"
#include "mpi/Rank.hpp"
#include "mpi/Simulation.hpp"

#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace mpisim;

namespace {

#define EXPECT_DATE(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::abs(expected) + 1e-15)

using testing_support::Scratch;

struct Link {
  std::string name;
  std::string bandwidth;
  std::string latency;
  std::string sharing = "SHARED";
};

struct Route {
  std::string src, dst;
  std::vector<std::string> links;
};

// A Full zone holding `hosts`, `links` and the (one-way, not symmetrical) `routes`.
std::string platform(const std::vector<std::string>& hosts, const std::vector<Link>& links,
                     const std::vector<Route>& routes)
{
  std::string body;
  for (const std::string& host : hosts)
    body += "  <host id=\"" + host + "\" speed=\"1Gf\"/>\n";
  for (const Link& link : links)
    body += "  <link id=\"" + link.name + "\" bandwidth=\"" + link.bandwidth + "\" latency=\"" + link.latency +
            "\" sharing_policy=\"" + link.sharing + "\"/>\n";
  for (const Route& route : routes) {
    body += "  <route src=\"" + route.src + "\" dst=\"" + route.dst + "\" symmetrical=\"NO\">";
    for (const std::string& link : route.links)
      body += "<link_ctn id=\"" + link + "\"/>";
    body += "</route>\n";
  }
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n" + body +
         "</zone>\n</platform>\n";
}

// One link l from a to b.
std::string one_link(const std::string& bandwidth, const std::string& latency, const std::string& sharing = "SHARED")
{
  return platform({"a", "b"}, {{"l", bandwidth, latency, sharing}}, {{"a", "b", {"l"}}});
}

struct Message {
  std::string src, dst;
  double bytes;
};

// Starts every message at date 0, in the order given (one actor), under the packet model with `parameters`; returns
// the date each one has arrived.
std::vector<double> arrivals(const std::string& platform_file, const std::vector<Message>& messages,
                             std::vector<std::pair<std::string, std::string>> parameters = {{"packet-size", "1000B"}})
{
  mpi::SimulationOptions options;
  options.platform = platform_file;
  options.model = "packet";
  options.model_parameters = std::move(parameters);
  mpi::Simulation simulation(options, 1);
  models::NetworkModel& network = simulation.world().network();
  kernel::Engine& engine = simulation.engine();
  std::vector<double> dates(messages.size(), -1);
  engine.spawn("messages", [&] {
    std::vector<std::shared_ptr<kernel::Activity>> started;
    for (const Message& m : messages) {
      const platform::HostId src = *simulation.platform().find_host(m.src);
      const platform::HostId dst = *simulation.platform().find_host(m.dst);
      started.push_back(network.transfer({src, dst, 0, 1, m.bytes, engine.now(), models::Protocol::Eager}).arrival);
    }
    for (size_t i = 0; i < started.size(); ++i) {
      engine.wait(*started[i]);
      if (dates[i] < 0)
        dates[i] = started[i]->finish_date();
    }
  });
  engine.run();
  return dates;
}

// --- the window ----------------------------------------------------------------------------------------------------

// W = max(1, ceil(B D / P)), P = 1000 B:
//  one link 1e6 B/s, no latency: D = 1 ms, B D = 1000 B, W = 1 (exactly 1: no rounding up past it);
//  the same with 10 ms latency: D = 11 ms, W = 11;
//  the chain of ThreeLinkChainPipelines: B = 0.5e6 B/s, D = (0.5 + 1) + (0.25 + 2) + (0.25 + 1) = 5 ms, B D / P =
//  2.5, W = 3;
//  an access link and a shared one, both 1e6 B/s, no latency: D = 2 ms, W = 2.
TEST(models_packet, WindowIsTheRoutesBandwidthDelayProductInPackets)
{
  const models::PacketNetwork network(4, 1000);
  using Hops = std::vector<models::PacketHop>;
  EXPECT_EQ(network.window(Hops{{0, 1e6, 0, true}}), 1u);
  EXPECT_EQ(network.window(Hops{{0, 1e6, 10e-3, true}}), 11u);
  EXPECT_EQ(network.window(Hops{{0, 1e6, 0.5e-3, true}, {1, 0.5e6, 0.25e-3, true}, {2, 1e6, 0.25e-3, true}}), 3u);
  EXPECT_EQ(network.window(Hops{{0, 1e6, 0, true}, {1, 1e6, 0, true}}), 2u);
}

// --- (3) one packet over one link ------------------------------------------------------------------------------------

// A message of one packet over one link takes lat + size / bw: 1000 B over 1 GBps / 10 us (default P = 100 KiB):
// 10e-6 + 1000 / 1e9 = 11e-6 s; a message of exactly one packet, 102400 B: 10e-6 + 102400 / 1e9 = 112.4e-6 s; an
// empty message pays the latency alone.
TEST(models_packet, OnePacketOverOneLinkIsLatencyPlusSizeOverBandwidth)
{
  Scratch scratch;
  const std::string file = scratch.write("link.xml", one_link("1GBps", "10us"));
  EXPECT_DATE(arrivals(file, {{"a", "b", 1000}}, {})[0], 11e-6);
  EXPECT_DATE(arrivals(file, {{"a", "b", 102400}}, {})[0], 112.4e-6);
  EXPECT_DATE(arrivals(file, {{"a", "b", 0}}, {})[0], 10e-6);
}

// --- (1) pipelining over a chain of three links ---------------------------------------------------------------------

// a -> d over l1 (1e6 B/s, 0.5 ms), l2 (0.5e6 B/s, 0.25 ms: the bottleneck, T = 2 ms), l3 (1e6 B/s, 0.25 ms); 10
// packets of 1000 B, W = 3 (above). The first packet fills the route in D = 5 ms; the window keeps l2 busy, so the
// others follow at its rate: 5 + 9 x 2 = 23 ms. Packet by packet: packets 0-2 leave a at 0, 1, 2 ms, reach the first
// router at 1.5, 2.5, 3.5, leave it on l2 at 1.5, 3.5, 5.5 (l2 busy from 1.5 on), reach d at 5, 7, 9; packet 3
// leaves a at 5 (packet 0 has arrived), reaches l2 at 6.5 and waits for it until 7.5 (no gap), ...; the last one
// leaves l2 at 1.5 + 10 x 2 = 21.5 and reaches d at 21.5 + 0.25 + 1 + 0.25 = 23 ms. A flow model would give
// 1 ms + 10000 / 0.5e6 = 21 ms: store and forward costs the first packet's time on the other links (1 + 1 ms).
// With 10000.5 bytes, an 11th packet of 0.5 B (1e-6 ms on l2, 0.5e-6 ms on l1 and l3) leaves a when packet 7 has
// arrived (19 ms), reaches l2 at 19.5005, waits for packet 9 there until 21.5, reaches the last router at 21.751 and
// waits for packet 9 again until 22.75 (it trails the full packets): it arrives at 22.7505 + 0.25 = 23.0005 ms.
TEST(models_packet, ThreeLinkChainPipelines)
{
  Scratch scratch;
  const std::string file = scratch.write(
      "chain.xml",
      platform({"a", "d"}, {{"l1", "1MBps", "0.5ms"}, {"l2", "0.5MBps", "0.25ms"}, {"l3", "1MBps", "0.25ms"}},
               {{"a", "d", {"l1", "l2", "l3"}}}));
  EXPECT_DATE(arrivals(file, {{"a", "d", 10000}})[0], 23e-3);
  EXPECT_DATE(arrivals(file, {{"a", "d", 10000.5}})[0], 23.0005e-3);
}

// The closed form of a lone stream (docs/models.md "packet"): n packets of P bytes over links of bandwidths bw_i and
// latencies lat_i arrive at sum_i (lat_i + P / bw_i) + (n - 1) P / min_i bw_i, because the window W = ceil(B D / P)
// has the next packets at the bottleneck before it idles. Checked packet by packet on random routes of 1 to 4 links.
TEST(models_packet, LoneStreamFollowsTheClosedFormOnRandomRoutes)
{
  std::mt19937 random(16);
  std::uniform_real_distribution<double> bandwidth(1e6, 1e9), latency(0, 1e-3), size(100, 1e5);
  for (int round = 0; round < 300; ++round) {
    const int hops = 1 + static_cast<int>(random() % 4);
    const double packet = size(random);
    const auto packets = static_cast<double>(1 + random() % 200);
    models::PacketNetwork network(static_cast<size_t>(hops), packet);
    std::vector<models::PacketHop> route;
    double fill = 0, bottleneck = 1e300;
    for (int i = 0; i < hops; ++i) {
      route.push_back({static_cast<uint32_t>(i), bandwidth(random), latency(random), true});
      fill += route.back().latency + packet / route.back().bandwidth;
      bottleneck = std::min(bottleneck, route.back().bandwidth);
    }
    network.start(route, packets * packet, 0);
    std::vector<models::DeliveredStream> delivered;
    network.advance_to(1e300, delivered);
    ASSERT_EQ(delivered.size(), 1u);
    const double expected = fill + (packets - 1) * packet / bottleneck;
    EXPECT_NEAR(delivered[0].date, expected, 1e-9 * expected) << "round " << round;
  }
}

// --- (2) two streams through one node -------------------------------------------------------------------------------

// a -> d over la then lx, b -> d over lb then lx, every link 1e6 B/s without latency; 3 packets each, W = 2, both
// started at 0 (a's first). Packet 0 of each reaches the router at 1 ms; the router sends onto lx in arrival order,
// ties in the order the packets came: a0 [1, 2], b0 [2, 3], a1 [3, 4], b1 [4, 5], a2 [5, 6], b2 [6, 7] (a2 left a
// at 2 ms, when a0 arrived, and reached the router at 3; b2 at 4). So a's message arrives at 6 ms and b's at 7 ms:
// lx is shared packet by packet. (A flow model shares lx evenly, 0.5e6 B/s each: both arrive at 6 ms.)
TEST(models_packet, TwoStreamsThroughOneNodeSharePacketByPacket)
{
  Scratch scratch;
  const std::string file = scratch.write(
      "merge.xml", platform({"a", "b", "d"}, {{"la", "1MBps", "0s"}, {"lb", "1MBps", "0s"}, {"lx", "1MBps", "0s"}},
                            {{"a", "d", {"la", "lx"}}, {"b", "d", {"lb", "lx"}}}));
  const std::vector<double> dates = arrivals(file, {{"a", "d", 3000}, {"b", "d", 3000}});
  EXPECT_DATE(dates[0], 6e-3);
  EXPECT_DATE(dates[1], 7e-3);
}

// On a FATPIPE link each stream has its own output: two 3-packet streams a -> b over one 1e6 B/s FATPIPE link both
// arrive at 3 ms (alone: 3 x 1 ms); on a SHARED link they take turns by windows (W = 1: a0 [0, 1], b0 [1, 2], a1
// [2, 3], b1 [3, 4], a2 [4, 5], b2 [5, 6]): 5 and 6 ms.
TEST(models_packet, FatpipeStreamsDoNotShare)
{
  Scratch scratch;
  const std::string fat = scratch.write("fat.xml", one_link("1MBps", "0s", "FATPIPE"));
  std::vector<double> dates = arrivals(fat, {{"a", "b", 3000}, {"a", "b", 3000}});
  EXPECT_DATE(dates[0], 3e-3);
  EXPECT_DATE(dates[1], 3e-3);
  const std::string shared = scratch.write("shared.xml", one_link("1MBps", "0s"));
  dates = arrivals(shared, {{"a", "b", 3000}, {"a", "b", 3000}});
  EXPECT_DATE(dates[0], 5e-3);
  EXPECT_DATE(dates[1], 6e-3);
}

// --- (4) the window, visible --------------------------------------------------------------------------------------

// One 1e6 B/s link a -> b, P = 1000 B: a 10-packet message, then a 1-packet one, both started at 0.
//  No latency: B D = 1000 B, W = 1. The long message has one packet in flight at a time: a0 [0, 1]; the short
//  message's packet, queued at 0, goes next [1, 2]; a1 (sent when a0 arrived, at 1) waits until 2, then a2..a9
//  follow: the short one arrives at 2 ms, the long one at 11 ms.
//  10 ms latency: D = 11 ms, W = 11 >= 10: the whole long message is queued at 0 and the short one behind it:
//  sent at [10, 11], it arrives at 21 ms; the long one at 10 + 10 = 20 ms.
// Alone, the long message is not slowed by its 1-packet window (the link never idles): 10 ms, as 10000 / 1e6.
TEST(models_packet, SmallBandwidthDelayProductLimitsPacketsInFlight)
{
  Scratch scratch;
  const std::string short_link = scratch.write("short.xml", one_link("1MBps", "0s"));
  std::vector<double> dates = arrivals(short_link, {{"a", "b", 10000}, {"a", "b", 1000}});
  EXPECT_DATE(dates[0], 11e-3);
  EXPECT_DATE(dates[1], 2e-3);
  const std::string long_link = scratch.write("long.xml", one_link("1MBps", "10ms"));
  dates = arrivals(long_link, {{"a", "b", 10000}, {"a", "b", 1000}});
  EXPECT_DATE(dates[0], 20e-3);
  EXPECT_DATE(dates[1], 21e-3);
  EXPECT_DATE(arrivals(short_link, {{"a", "b", 10000}})[0], 10e-3);
}

// --- MPI protocols and overheads ------------------------------------------------------------------------------------

// Eager below eager-thresh (64 KiB), rendezvous from it on; never detached.
TEST(models_packet, EagerBelowTheThresholdRendezvousFromIt)
{
  Scratch scratch;
  mpi::SimulationOptions options;
  options.platform = scratch.write("link.xml", one_link("1GBps", "10us"));
  options.model = "packet";
  options.model_parameters = {{"eager-thresh", "1000B"}};
  mpi::Simulation simulation(options, 1);
  const models::ProtocolThresholds thresholds = simulation.world().network().protocol_thresholds(0, 1);
  EXPECT_EQ(thresholds.eager_below, 1000);
  EXPECT_EQ(thresholds.detached_below, 1000);
  EXPECT_FALSE(thresholds.timed_from_send);
}

// Rank 0 sends 1000 B to rank 1 (a -> b, 1 GBps / 10 us) with send-overhead 2 us and receive-overhead 3 us, the
// receive posted at 0: the sender spends 2 us and posts (eager), the data arrives 10 + 1 us later, at 13 us, and the
// receiver spends 3 us: it returns at 16 us, the sender at 2 us.
TEST(models_packet, OverheadsAreChargedAtSendAndReceive)
{
  Scratch scratch;
  mpi::SimulationOptions options;
  options.platform = scratch.write("link.xml", one_link("1GBps", "10us"));
  options.model = "packet";
  options.model_parameters = {{"send-overhead", "2us"}, {"receive-overhead", "3us"}};
  options.hostfile = scratch.write("hosts", "a\nb\n");
  mpi::Simulation simulation(options, 2);
  double sent = -1, received = -1;
  simulation.world().launch([&](mpi::Rank& rank) {
    const mpi::Communicator& world = rank.world().comm_world();
    if (rank.world_rank() == 0) {
      rank.send(world, 1, 0, 1000);
      sent = rank.world().engine().now();
    } else {
      rank.recv(world, 0, 0, 1000);
      received = rank.world().engine().now();
    }
  });
  simulation.engine().run();
  EXPECT_DATE(sent, 2e-6);
  EXPECT_DATE(received, 16e-6);
}

// --- speed ----------------------------------------------------------------------------------------------------------

// 1 GiB in 10 KiB packets over a 3-hop chain of equal links (1.25e9 B/s, 1 us): n = 104857.6 -> 104858 packets, the
// last of 0.6 x 10240 = 6144 B; T = 10240 / 1.25e9, Tr = 6144 / 1.25e9. W = ceil(3 (1 us + T) / T) = 4 keeps the
// chain busy: packet k leaves the first link at (k + 1) T and crosses the others without waiting. The last one leaves
// the first link at (n - 1) T + Tr, then waits on each of the other two for the packet before it (which leaves the
// second link at n T + lat, the third at (n + 1) T + 2 lat): it arrives at (n + 1) T + Tr + 3 lat.
// Prints the wall time it took (the report quotes it).
TEST(models_packet, OneGibibyteInTenKibibytePacketsOverThreeHops)
{
  Scratch scratch;
  const std::string file = scratch.write(
      "chain.xml",
      platform({"a", "d"}, {{"l1", "1.25GBps", "1us"}, {"l2", "1.25GBps", "1us"}, {"l3", "1.25GBps", "1us"}},
               {{"a", "d", {"l1", "l2", "l3"}}}));
  const double bytes = 1024.0 * 1024 * 1024;
  const auto started = std::chrono::steady_clock::now();
  const double date = arrivals(file, {{"a", "d", bytes}}, {{"packet-size", "10KiB"}})[0];
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("1 GiB, 10 KiB packets, 3 hops: %.3f s of wall time\n", seconds);
  const double n = 104858;
  EXPECT_DATE(date, (n + 1) * 10240 / 1.25e9 + 6144 / 1.25e9 + 3e-6);
  // The work is linear: each packet reaches each of the 3 nodes after the source once.
  models::PacketNetwork network(3, 10240);
  const std::vector<models::PacketHop> route = {
      {0, 1.25e9, 1e-6, true}, {1, 1.25e9, 1e-6, true}, {2, 1.25e9, 1e-6, true}};
  network.start(route, bytes, 0);
  std::vector<models::DeliveredStream> delivered;
  network.advance_to(1e300, delivered);
  ASSERT_EQ(delivered.size(), 1u);
  EXPECT_EQ(delivered[0].date, date);
  EXPECT_EQ(network.packet_hops(), 3 * 104858u);
}

} // namespace
