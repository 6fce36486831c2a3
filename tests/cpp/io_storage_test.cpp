// The storage model (src/io), on scenarios solved by hand with the PIOsimHD paper's formulas (Kunkel et al., Sec. 4
// and 4.1; docs/io.md).
//
// The paper's hard disk: average seek 9 ms, track-to-track seek 1.1 ms, 7200 RPM (rotational delay: half a
// revolution, 30 / 7200 s = 4.1667 ms), 96 MiB/s; seek window 1 MiB. An access of S bytes takes
//   continuing the previous access of the same file:   S / 96 MiB/s
//   within 1 MiB of it:                                1.1 ms + 4.1667 ms + S / 96 MiB/s
//   farther, another file, or the first access:        9 ms + 4.1667 ms + S / 96 MiB/s
// Network (the `fluid` model: a message of S bytes alone on its route takes L + S / B): hosts on one switch, each
// by its own link of 100 MB/s (1e8 B/s) and 10 us, so a message crosses two links: L = 20 us, B = 1e8 B/s, halved
// on a link two messages share.
//
// Suite names start with "io" so that `ctest -R io` selects them.
#include "common/Errors.hpp"
#include "io/StorageSystem.hpp"
#include "kernel/Engine.hpp"
#include "models/NetworkModel.hpp"
#include "mpi/io/CollectiveFileAccess.hpp"
#include "platform/Platform.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace mpisim;

namespace {

constexpr double MiB = 1048576.0;
constexpr double kHddRate = 96 * MiB;
constexpr double kRotation = 30.0 / 7200;
constexpr double kFarSeek = 9e-3 + kRotation;
constexpr double kNearSeek = 1.1e-3 + kRotation;
constexpr double kLatency = 20e-6;
constexpr double kBandwidth = 1e8;
constexpr double kRequest = 256; // bytes of a request or acknowledgement message (the default)

#define EXPECT_DATE(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::abs(expected) + 1e-12)

const char* const kHdd = R"(<disk id="hdd" read_bw="96MiBps" write_bw="96MiBps">
        <prop id="kind" value="hdd"/><prop id="average_seek" value="9ms"/>
        <prop id="track_to_track_seek" value="1.1ms"/><prop id="rpm" value="7200"/></disk>)";

// A Floyd zone: the hosts, each joined to router "sw" by its own 100 MBps, 10 us link; `zone_props` and the hosts'
// bodies (disks, props) as given.
std::string switched(const std::vector<std::pair<std::string, std::string>>& hosts, const std::string& zone_props)
{
  std::string xml =
      "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Floyd\">\n" + zone_props + "\n";
  for (const auto& [name, body] : hosts)
    xml += "<host id=\"" + name + "\" speed=\"1Gf\">" + body + "</host>\n";
  xml += "<router id=\"sw\"/>\n";
  for (const auto& host : hosts)
    xml += "<link id=\"l_" + host.first + "\" bandwidth=\"100MBps\" latency=\"10us\"/>\n";
  for (const auto& host : hosts)
    xml += "<route src=\"" + host.first + "\" dst=\"sw\"><link_ctn id=\"l_" + host.first + "\"/></route>\n";
  return xml + "</zone>\n</platform>\n";
}

// One simulation: the platform, the fluid network model, the storage system and the clients' actors.
struct Scenario {
  explicit Scenario(const std::string& xml)
      : platform(platform::load_platform_text("test.xml", xml)),
        parameters(models::NetworkModelRegistry::find("fluid").parameters),
        network(models::NetworkModelRegistry::find("fluid").factory({engine, *platform, parameters})),
        storage(engine, *platform, *network, 2)
  {
  }
  io::Client client(const std::string& host, int rank) { return {*platform->find_host(host), rank}; }
  // Runs `body` in an actor; waits are done with wait().
  void spawn(const std::string& name, std::function<void()> body) { engine.spawn(name, std::move(body)); }
  double wait(const kernel::ActivityPtr& activity)
  {
    engine.wait(*activity);
    return engine.now();
  }

  kernel::Engine engine;
  std::unique_ptr<platform::Platform> platform;
  models::Parameters parameters;
  std::unique_ptr<models::NetworkModel> network;
  io::StorageSystem storage;
};

// The disk model alone: no seek when continuing, track-to-track within the window, average seek beyond it and on
// another file.
TEST(io_disk, PositioningFollowsThePaper)
{
  platform::DiskSpec hdd;
  hdd.kind = platform::DiskKind::Hdd;
  hdd.read_bandwidth = hdd.write_bandwidth = kHddRate;
  hdd.average_seek = 9e-3;
  hdd.track_to_track_seek = 1.1e-3;
  hdd.rpm = 7200;
  const io::HeadPosition head{7, 4 * MiB};
  const auto at = [](io::FileId file, double offset) { return io::DiskAccess{file, offset, MiB, io::Direction::Read}; };
  EXPECT_DATE(io::positioning_time(hdd, std::nullopt, at(7, 0)), kFarSeek);
  EXPECT_DATE(io::positioning_time(hdd, head, at(7, 4 * MiB)), 0.0);
  EXPECT_DATE(io::positioning_time(hdd, head, at(7, 5 * MiB)), kNearSeek);   // exactly the window
  EXPECT_DATE(io::positioning_time(hdd, head, at(7, 3.5 * MiB)), kNearSeek); // backwards, within it
  EXPECT_DATE(io::positioning_time(hdd, head, at(7, 5 * MiB + 1)), kFarSeek);
  EXPECT_DATE(io::positioning_time(hdd, head, at(8, 4 * MiB)), kFarSeek); // another file
  EXPECT_DATE(io::service_time(hdd, head, at(7, 4 * MiB)), MiB / kHddRate);

  platform::DiskSpec nvme;
  nvme.read_bandwidth = 3e9;
  nvme.write_bandwidth = 2e9;
  nvme.latency = 20e-6;
  EXPECT_DATE(io::service_time(nvme, head, {7, 0, 2e6, io::Direction::Write}), 20e-6 + 1e-3);
  EXPECT_DATE(io::service_time(nvme, head, {7, 0, 3e6, io::Direction::Read}), 20e-6 + 1e-3);
}

// Without file servers, files are on the disk of the accessing host (no network): a first write pays an average
// seek, the next one continuing it none, one 0.5 MiB further a track-to-track seek, one 8 MiB further an average
// seek, and another file an average seek.
//   t1 = 13.1667 ms + 10.4167 ms                    = 23.5833 ms
//   t2 = t1 + 10.4167 ms                            = 34.0000 ms
//   t3 = t2 + 1.1 ms + 4.1667 ms + 10.4167 ms       = 49.6833 ms (at 2.5 MiB: 0.5 MiB after the end, 2 MiB)
//   t4 = t3 + 13.1667 ms + 10.4167 ms               = 73.2667 ms (at 11.5 MiB: 8 MiB after the end, 3.5 MiB)
//   t5 = t4 + 13.1667 ms + 10.4167 ms               = 96.85 ms   (another file, at 12.5 MiB)
TEST(io_storage, LocalDiskSequentialNearAndFarAccesses)
{
  Scenario s(switched({{"c0", kHdd}}, ""));
  std::vector<double> dates;
  s.spawn("c0", [&] {
    const io::Client me = s.client("c0", 0);
    const io::FileId a = s.storage.file("a");
    const io::FileId b = s.storage.file("b");
    for (double offset : {0.0, MiB, 2.5 * MiB, 11.5 * MiB})
      dates.push_back(s.wait(s.storage.access(me, a, offset, MiB, io::Direction::Write)));
    dates.push_back(s.wait(s.storage.access(me, b, 12.5 * MiB, MiB, io::Direction::Write)));
    EXPECT_DATE(s.storage.size(a), 12.5 * MiB);
  });
  s.engine.run();
  const double transfer = MiB / kHddRate;
  ASSERT_EQ(dates.size(), 5U);
  EXPECT_DATE(dates[0], kFarSeek + transfer);
  EXPECT_DATE(dates[1], dates[0] + transfer);
  EXPECT_DATE(dates[2], dates[1] + kNearSeek + transfer);
  EXPECT_DATE(dates[3], dates[2] + kFarSeek + transfer);
  EXPECT_DATE(dates[4], dates[3] + kFarSeek + transfer);
  EXPECT_NEAR(dates[4], 0.09685, 1e-6);
}

// Without file servers, open and close cost the zone's io/open-cost and io/close-cost on the client itself (no
// message), so that a platform can give local opens a time:
//   opened at 1 ms; written at 1 ms + 13.1667 ms + 10.4167 ms = 24.5833 ms; closed at 24.5833 ms + 0.5 ms.
TEST(io_storage, LocalOpenAndCloseCostTheirTimeOnTheClient)
{
  Scenario s(
      switched({{"c0", kHdd}}, R"(<prop id="io/open-cost" value="1ms"/><prop id="io/close-cost" value="0.5ms"/>)"));
  std::vector<double> dates;
  s.spawn("c0", [&] {
    const io::Client me = s.client("c0", 0);
    const io::FileId f = s.storage.file("f");
    dates.push_back(s.wait(s.storage.open(me, f)));
    dates.push_back(s.wait(s.storage.access(me, f, 0, MiB, io::Direction::Write)));
    dates.push_back(s.wait(s.storage.close(me, f)));
  });
  s.engine.run();
  ASSERT_EQ(dates.size(), 3U);
  EXPECT_DATE(dates[0], 1e-3);
  EXPECT_DATE(dates[1], 1e-3 + kFarSeek + MiB / kHddRate);
  EXPECT_DATE(dates[2], dates[1] + 0.5e-3);
}

// A write to a file server with write-behind completes once in the cache: request (256 B), data (1 MiB), copy at
// 1 GB/s, acknowledgement (256 B); the disk writes it in the background, which sync waits for.
//   data arrives at  d = 2 * (20 us + 256 / 1e8) ... request, then 20 us + 1048576 / 1e8
//   write done at    d + 1048576 / 1e9 + 20 us + 256 / 1e8
//   on disk at       d + 13.1667 ms + 10.4167 ms; sync done after its request and reply: max(on disk, ...) + 20 us
//                    + 256 / 1e8
TEST(io_storage, CachedWriteCompletesInMemoryAndSyncWaitsForTheDisk)
{
  const std::string server = std::string(kHdd) + R"(<prop id="io/cache-size" value="64MiB"/>
      <prop id="io/memory-bw" value="1GBps"/>)";
  Scenario s(switched({{"c0", ""}, {"s0", server}}, R"(<prop id="io/servers" value="s0"/>)"));
  double written = 0;
  double synced = 0;
  s.spawn("c0", [&] {
    const io::Client me = s.client("c0", 0);
    const io::FileId f = s.storage.file("f");
    written = s.wait(s.storage.access(me, f, 0, MiB, io::Direction::Write));
    synced = s.wait(s.storage.sync(me, f));
  });
  s.engine.run();
  const double message = kLatency + kRequest / kBandwidth;
  const double data_arrives = message + kLatency + MiB / kBandwidth;
  EXPECT_DATE(written, data_arrives + MiB / 1e9 + message);
  // The sync request reaches the server before the disk is done: it waits, then replies.
  const double on_disk = data_arrives + kFarSeek + MiB / kHddRate;
  ASSERT_LT(written + message, on_disk);
  EXPECT_DATE(synced, on_disk + message);
}

// Reading back what is in the cache costs a memory copy, not a disk access; a read of data the cache does not hold
// goes to the disk (here the cache is too small for anything: size 1 byte).
TEST(io_storage, ReadHitsTheCacheAfterAWrite)
{
  const std::string server = std::string(kHdd) + R"(<prop id="io/cache-size" value="64MiB"/>
      <prop id="io/memory-bw" value="1GBps"/>)";
  Scenario s(switched({{"c0", ""}, {"s0", server}}, R"(<prop id="io/servers" value="s0"/>)"));
  double start = 0;
  double read = 0;
  s.spawn("c0", [&] {
    const io::Client me = s.client("c0", 0);
    const io::FileId f = s.storage.file("f");
    s.wait(s.storage.access(me, f, 0, MiB, io::Direction::Write));
    s.wait(s.storage.sync(me, f));
    start = s.engine.now();
    read = s.wait(s.storage.access(me, f, 0, MiB, io::Direction::Read));
  });
  s.engine.run();
  const double message = kLatency + kRequest / kBandwidth;
  EXPECT_DATE(read - start, message + MiB / 1e9 + kLatency + MiB / kBandwidth);
}

// A file striped over two servers in 64 KiB units: a 256 KiB write from one client gives each server 128 KiB (units
// 0 and 2 on s0, 1 and 3 on s1, each contiguous in the server's data). The two requests share the client's link
// (5e7 B/s each); the servers' NVMe disks (1 GB/s, 0.1 ms) work in parallel.
//   request 20 us + 256 / 5e7, data 20 us + 131072 / 5e7, disk 0.1 ms + 131072 / 1e9, ack 20 us + 256 / 5e7
TEST(io_storage, StripedWriteOverTwoServers)
{
  const std::string nvme =
      R"(<disk id="nvme" read_bw="1GBps" write_bw="1GBps"><prop id="latency" value="0.1ms"/></disk>)";
  Scenario s(switched({{"c0", ""}, {"s0", nvme}, {"s1", nvme}},
                      R"(<prop id="io/servers" value="s0,s1"/><prop id="io/stripe-size" value="64KiB"/>)"));
  double written = 0;
  s.spawn("c0", [&] {
    const io::FileId f = s.storage.file("f");
    EXPECT_EQ(s.storage.place(f, 0).server, 0U);
    EXPECT_EQ(s.storage.place(f, 65536).server, 1U);
    EXPECT_EQ(s.storage.place(f, 2 * 65536 + 5).server, 0U);
    EXPECT_DATE(s.storage.place(f, 2 * 65536 + 5).local_offset, 65536 + 5);
    written = s.wait(s.storage.access(s.client("c0", 0), f, 0, 4 * 65536, io::Direction::Write));
  });
  s.engine.run();
  const double shared = kBandwidth / 2;
  EXPECT_DATE(written, 3 * kLatency + (kRequest + 131072 + kRequest) / shared + 0.1e-3 + 131072 / 1e9);
}

// Two clients write 1 MiB each to one file on one server without cache, at offsets 0 and 1 MiB, at the same time:
// their messages share the server's link, then the disk serves them one after the other, the second continuing the
// first (no seek).
//   data at the server   d = 20 us + 256 / 5e7 + 20 us + 1048576 / 5e7
//   first done           d + 13.1667 ms + 10.4167 ms + 20 us + 256 / 1e8
//   second done          d + 13.1667 ms + 2 * 10.4167 ms + 20 us + 256 / 1e8
TEST(io_storage, TwoClientsContendOnOneDisk)
{
  Scenario s(switched({{"c0", ""}, {"c1", ""}, {"s0", kHdd}}, R"(<prop id="io/servers" value="s0"/>)"));
  double done[2] = {0, 0};
  for (int rank = 0; rank < 2; ++rank) {
    s.spawn("c" + std::to_string(rank), [&, rank] {
      const io::FileId f = s.storage.file("shared");
      done[rank] = s.wait(
          s.storage.access(s.client("c" + std::to_string(rank), rank), f, rank * MiB, MiB, io::Direction::Write));
    });
  }
  s.engine.run();
  const double shared = kBandwidth / 2;
  const double at_server = 2 * kLatency + (kRequest + MiB) / shared;
  const double ack = kLatency + kRequest / kBandwidth;
  EXPECT_DATE(done[0], at_server + kFarSeek + MiB / kHddRate + ack);
  EXPECT_DATE(done[1], at_server + kFarSeek + 2 * MiB / kHddRate + ack);
  EXPECT_DATE(s.storage.size(s.storage.file("shared")), 2 * MiB);
}

// Atomic mode's byte-range lock: four clients, each with its own disk (no servers), start at 0 to write 1 MiB of
// one file, each access taking W = 9 ms + 4.1667 ms + 1 MiB / 96 MiB/s on its disk (a first access). c0 locks
// [0, 1 MiB); c1's [0.5, 1.5 MiB) overlaps it and waits; c2's [4, 5 MiB) is disjoint and runs at once; c3's
// [1.25, 2.25 MiB) overlaps only c1, which is waiting before it: it waits for c1 (first come, first served).
TEST(io_storage, AtomicAccessesWaitForOverlappingRangesInArrivalOrder)
{
  Scenario s(switched({{"c0", kHdd}, {"c1", kHdd}, {"c2", kHdd}, {"c3", kHdd}}, ""));
  const double offsets[4] = {0, 0.5 * MiB, 4 * MiB, 1.25 * MiB};
  double done[4] = {0, 0, 0, 0};
  for (int rank = 0; rank < 4; ++rank) {
    s.spawn("c" + std::to_string(rank), [&, rank] {
      const io::FileId f = s.storage.file("atomic");
      done[rank] = s.wait(s.storage.access_each_atomically(s.client("c" + std::to_string(rank), rank), f,
                                                           {{offsets[rank], MiB}}, io::Direction::Write));
    });
  }
  s.engine.run();
  const double write = kFarSeek + MiB / kHddRate;
  EXPECT_DATE(done[0], write);
  EXPECT_DATE(done[1], 2 * write);
  EXPECT_DATE(done[2], write);
  EXPECT_DATE(done[3], 3 * write);
}

// A sequential read triggers read-ahead: after reading [0, 1 MiB) and [1 MiB, 2 MiB) (the second continuing the
// first), the server fetches [2 MiB, 3 MiB) in the background; a read of it later costs only a memory copy.
TEST(io_storage, ReadAheadServesTheNextSequentialRead)
{
  const std::string server = std::string(kHdd) + R"(<prop id="io/cache-size" value="64MiB"/>
      <prop id="io/memory-bw" value="1GBps"/><prop id="io/read-ahead" value="1MiB"/>)";
  Scenario s(switched({{"c0", ""}, {"s0", server}}, R"(<prop id="io/servers" value="s0"/>)"));
  double start = 0;
  double third = 0;
  s.spawn("c0", [&] {
    const io::Client me = s.client("c0", 0);
    const io::FileId f = s.storage.file("f");
    s.wait(s.storage.access(me, f, 0, MiB, io::Direction::Read));
    s.wait(s.storage.access(me, f, MiB, MiB, io::Direction::Read));
    s.engine.sleep(1); // the read-ahead is done long before
    start = s.engine.now();
    third = s.wait(s.storage.access(me, f, 2 * MiB, MiB, io::Direction::Read));
  });
  s.engine.run();
  const double message = kLatency + kRequest / kBandwidth;
  EXPECT_DATE(third - start, message + MiB / 1e9 + kLatency + MiB / kBandwidth);
}

// Records smaller than the read-ahead: each sequential read fetches only the part of the next window not cached yet,
// so reads inside the window already fetched never wait for the disk. After [0, 256 KiB) and [256 KiB, 512 KiB) the
// server holds [512 KiB, 1.5 MiB); the next four records are memory copies back to back (a read-ahead that fetched
// the whole window again at each record would make the second wait for 1 MiB from the disk).
TEST(io_storage, ReadAheadFetchesOnlyWhatIsNotCached)
{
  const std::string server = std::string(kHdd) + R"(<prop id="io/cache-size" value="64MiB"/>
      <prop id="io/memory-bw" value="1GBps"/><prop id="io/read-ahead" value="1MiB"/>)";
  Scenario s(switched({{"c0", ""}, {"s0", server}}, R"(<prop id="io/servers" value="s0"/>)"));
  const double record = MiB / 4;
  double start = 0;
  double end = 0;
  s.spawn("c0", [&] {
    const io::Client me = s.client("c0", 0);
    const io::FileId f = s.storage.file("f");
    s.wait(s.storage.access(me, f, 0, record, io::Direction::Read));
    s.wait(s.storage.access(me, f, record, record, io::Direction::Read));
    s.engine.sleep(1); // the read-ahead is done long before
    start = s.engine.now();
    for (int k = 2; k < 6; ++k)
      end = s.wait(s.storage.access(me, f, k * record, record, io::Direction::Read));
  });
  s.engine.run();
  const double message = kLatency + kRequest / kBandwidth;
  EXPECT_DATE(end - start, 4 * (message + record / 1e9 + kLatency + record / kBandwidth));
}

// Pipelining (docs/io.md): a 4 MiB request to one server without cache moves in four 1 MiB pieces; the disk works on
// one while the network carries another. Per piece: disk d1 = 13.1667 ms + 10.4167 ms for the first (a far seek),
// d = 10.4167 ms for the others (each continues the one before); network n = 20 us + 1048576 / 1e8 = 10.506 ms, so
// the network is the slower stage. Request message m = 20 us + 256 / 1e8.
//   read:  m + d1 + 3 n + n                     (each piece goes back as soon as the one before has arrived)
//   write: m + n + d1 + 3 d + m                 (pieces 2-4 arrive while piece 1 is on the disk)
// Without pipelining each took about 96.8 ms (disk, then network); now 65.6 and 65.4 ms.
TEST(io_storage, LargeRequestPipelinesDiskAndNetwork)
{
  Scenario s(switched({{"c0", ""}, {"s0", kHdd}}, R"(<prop id="io/servers" value="s0"/>)"));
  double read = 0;
  double write_start = 0;
  double written = 0;
  s.spawn("c0", [&] {
    const io::Client me = s.client("c0", 0);
    read = s.wait(s.storage.access(me, s.storage.file("r"), 0, 4 * MiB, io::Direction::Read));
    write_start = s.engine.now();
    written = s.wait(s.storage.access(me, s.storage.file("w"), 0, 4 * MiB, io::Direction::Write));
  });
  s.engine.run();
  const double m = kLatency + kRequest / kBandwidth;
  const double d1 = kFarSeek + MiB / kHddRate;
  const double d = MiB / kHddRate;
  const double n = kLatency + MiB / kBandwidth;
  ASSERT_GT(n, d);
  EXPECT_DATE(read, m + d1 + 4 * n);
  // Piece k (k = 1..4) reaches the server at m + k n; pieces 2-4 before piece k-1 leaves the disk.
  ASSERT_LT(m + 4 * n, m + n + d1 + 2 * d);
  EXPECT_DATE(written - write_start, m + n + d1 + 3 * d + m);
}

// Data sieving (docs/specifications/data-sieving.md) on a client's own disk (no servers): four 1 MiB blocks every
// 2 MiB, extent [0, 7 MiB). R = 1 MiB / 96 MiB/s.
//   unsieved read:  far + R, then three near seeks (each block starts 1 MiB past the end of the one before) + R
//   sieved read (4 MiB buffer): chunks of 4 and 3 MiB, the second continuing the first: far + 7 R
//   sieved write (2 MiB buffer) of a new file: chunks 2, 2, 2, 1 MiB, each written without a read (there is nothing
//     in the file past its end, and each chunk's write extends it to the next chunk): far (the disk's first access)
//     + 7 R
//   the same over a file of 3 MiB (written first, contiguously: far + 3 R): the first chunk is read whole, going back
//     3 MiB from the end of that write (far + 2 R), then written back 2 MiB before the read's end (far + 2 R); the
//     second chunk is read up to the file's end, [2, 3) MiB, continuing the write before (R), and written whole going
//     back 1 MiB (near + 2 R); the file then ends at 4 MiB: the last two chunks are only written, each continuing
//     the one before (2 R + R): 2 far + near + 10 R. (Reading whole chunks, as before the end of file was taken into
//     account, took 3 far + 2 near + 14 R.)
TEST(io_storage, DataSievingReadsTheExtentInBufferSizeChunks)
{
  EXPECT_EQ(io::StorageSystem::chunks_of(0, 7 * MiB, 4 * MiB),
            (std::vector<std::pair<double, double>>{{0, 4 * MiB}, {4 * MiB, 3 * MiB}}));
  const std::vector<mpi::FilePiece> blocks = {{0, 1 << 20}, {2 << 20, 1 << 20}, {4 << 20, 1 << 20}, {6 << 20, 1 << 20}};
  mpi::CollectiveBufferingHints sieving;
  sieving.ind_wr_buffer_size = 2 << 20;
  mpi::CollectiveBufferingHints disabled;
  disabled.romio_ds_read = "disable";
  const double R = MiB / kHddRate;
  auto time = [&](const std::string& name, io::Direction direction, const mpi::CollectiveBufferingHints* hints) {
    Scenario s(switched({{"c0", kHdd}}, ""));
    double done = 0;
    s.spawn("c0", [&] {
      const io::FileId f = s.storage.file(name);
      done = s.wait(mpi::time_pieces(s.storage, f, s.client("c0", 0), blocks, direction, false, hints));
    });
    s.engine.run();
    return done;
  };
  EXPECT_DATE(time("a", io::Direction::Read, &disabled), kFarSeek + R + 3 * (kNearSeek + R));
  EXPECT_DATE(time("a", io::Direction::Read, nullptr), kFarSeek + R + 3 * (kNearSeek + R));
  EXPECT_DATE(time("b", io::Direction::Read, &sieving), kFarSeek + 7 * R);
  EXPECT_DATE(time("c", io::Direction::Write, &sieving), kFarSeek + 7 * R);
  Scenario s(switched({{"c0", kHdd}}, ""));
  double prefilled = 0;
  double sieved = 0;
  s.spawn("c0", [&] {
    const io::FileId f = s.storage.file("d");
    const io::Client me = s.client("c0", 0);
    prefilled = s.wait(s.storage.access(me, f, 0, 3 * MiB, io::Direction::Write));
    sieved = s.wait(mpi::time_pieces(s.storage, f, me, blocks, io::Direction::Write, false, &sieving)) - prefilled;
  });
  s.engine.run();
  EXPECT_DATE(prefilled, kFarSeek + 3 * R);
  EXPECT_DATE(sieved, 2 * kFarSeek + kNearSeek + 10 * R);
  EXPECT_DOUBLE_EQ(s.storage.size(s.storage.file("d")), 7 * MiB);
}

// Bad storage descriptions are input errors at the line of the offending element.
TEST(io_platform, BadValuesNameTheLine)
{
  auto error_of = [](const std::string& xml) -> std::string {
    try {
      platform::load_platform_text("p.xml", xml);
    } catch (const InputError& error) {
      return error.what();
    }
    return "(no error)";
  };
  const std::string zero_bw = error_of(switched({{"s0", R"(<disk id="d" read_bw="0MBps" write_bw="1MBps"/>)"}}, ""));
  EXPECT_NE(zero_bw.find("p.xml:5:"), std::string::npos) << zero_bw;
  EXPECT_NE(zero_bw.find("read_bw"), std::string::npos) << zero_bw;
  const std::string negative =
      error_of(switched({{"s0", R"(<disk id="d" read_bw="1MBps" write_bw="1MBps"><prop id="kind" value="hdd"/>
<prop id="average_seek" value="-9ms"/><prop id="track_to_track_seek" value="1ms"/><prop id="rpm" value="7200"/></disk>)"}},
                        ""));
  EXPECT_NE(negative.find("p.xml:6:"), std::string::npos) << negative;
  EXPECT_NE(negative.find("average_seek"), std::string::npos) << negative;
  const std::string missing_rpm = error_of(
      switched({{"s0", R"(<disk id="d" read_bw="1MBps" write_bw="1MBps"><prop id="kind" value="hdd"/></disk>)"}}, ""));
  EXPECT_NE(missing_rpm.find("p.xml:5:"), std::string::npos) << missing_rpm;
  const std::string missing_server = error_of(switched({{"s0", kHdd}}, R"(<prop id="io/servers" value="s0,s9"/>)"));
  EXPECT_NE(missing_server.find("p.xml:4: io/servers: no host 's9'"), std::string::npos) << missing_server;
  const std::string no_disk = error_of(switched({{"s0", ""}}, R"(<prop id="io/servers" value="s0"/>)"));
  EXPECT_NE(no_disk.find("p.xml:4: io/servers: host 's0' has no <disk>"), std::string::npos) << no_disk;
  const std::string zero_memory = error_of(switched({{"s0", R"(<prop id="io/memory-bw" value="0GBps"/>)"}}, ""));
  EXPECT_NE(zero_memory.find("p.xml:5:"), std::string::npos) << zero_memory;
  const std::string typo = error_of(switched({{"s0", ""}}, R"(<prop id="io/stripe-sise" value="1MiB"/>)"));
  EXPECT_NE(typo.find("p.xml:4:"), std::string::npos) << typo;
  EXPECT_NE(typo.find("io/stripe-sise"), std::string::npos) << typo;
}

// docs/io.md's worked example: on the paper's cluster, node-1 writes 1 MiB to a file on node-0 alone; the server's
// write-behind cache takes it. Gigabit links (125e6 B/s, 50 us each, two on the route), 20 us request overhead:
//   request 100 us + 256 / 125e6; data 100 us + 1048576 / 125e6; 20 us; copy 1048576 / 5e9; ack as the request
//   = 8.922 ms
TEST(io_storage, PaperClusterWorkedExample)
{
  kernel::Engine engine;
  auto paper = platform::load_platform(MPISIM_SOURCE_DIR "/platforms/pio-cluster-10.xml");
  models::Parameters parameters(models::NetworkModelRegistry::find("fluid").parameters);
  auto network = models::NetworkModelRegistry::find("fluid").factory({engine, *paper, parameters});
  io::StorageSystem storage(engine, *paper, *network, 1);
  double written = 0;
  engine.spawn("client", [&] {
    const io::FileId f = storage.file("diagonal", {0, 1});
    ASSERT_EQ(storage.place(f, 0).server, 0U);
    const auto written_activity = storage.access({*paper->find_host("node-1"), 0}, f, 0, MiB, io::Direction::Write);
    engine.wait(*written_activity);
    written = engine.now();
  });
  engine.run();
  const double message = 100e-6 + 256 / 125e6;
  EXPECT_DATE(written, 2 * message + 100e-6 + MiB / 125e6 + 20e-6 + MiB / 5e9);
  EXPECT_NEAR(written, 8.922e-3, 0.5e-6);
}

// The bundled platforms: the paper's cluster (Sec. 4.1) and a modern NVMe one.
TEST(io_platform, BundledPlatformsDescribeTheirStorage)
{
  auto paper = platform::load_platform(MPISIM_SOURCE_DIR "/platforms/pio-cluster-10.xml");
  const platform::StorageSpec& storage = paper->storage();
  ASSERT_EQ(storage.servers.size(), 10U);
  EXPECT_EQ(paper->hosts().size(), 10U);
  const platform::DiskSpec& hdd = storage.disks.at(storage.servers[3].host).front();
  EXPECT_EQ(hdd.kind, platform::DiskKind::Hdd);
  EXPECT_DATE(hdd.average_seek, 9e-3);
  EXPECT_DATE(hdd.track_to_track_seek, 1.1e-3);
  EXPECT_DATE(hdd.rpm, 7200);
  EXPECT_DATE(hdd.write_bandwidth, kHddRate);
  EXPECT_DATE(hdd.seek_window, MiB);
  EXPECT_DATE(storage.servers[3].cache.size, 1024 * MiB);
  EXPECT_DATE(storage.stripe_size, 65536);

  auto modern = platform::load_platform(MPISIM_SOURCE_DIR "/platforms/io-nvme.xml");
  ASSERT_EQ(modern->storage().servers.size(), 4U);
  const auto& disks = modern->storage().disks.at(modern->storage().servers[0].host);
  ASSERT_EQ(disks.size(), 2U);
  EXPECT_EQ(disks[1].kind, platform::DiskKind::Ssd);
  EXPECT_DATE(disks[1].read_bandwidth, 7e9);
  EXPECT_DATE(disks[1].latency, 20e-6);
}

} // namespace
