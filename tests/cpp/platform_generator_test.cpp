// generate_platform builds exactly what the equivalent <cluster> element builds: same hosts, same
// links, same routes for every pair. Bad specs are refused with a message naming the bad part.
//
// Suite names repeat the file name so that `ctest -R platform` selects them.
#include "common/Errors.hpp"
#include "platform/BundledPlatforms.hpp"
#include "platform/Platform.hpp"
#include "platform/PlatformSize.hpp"

#include "support/Scratch.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace mpisim;
using namespace mpisim::platform;

namespace {

std::unique_ptr<Platform> from_cluster_element(const std::string& cluster)
{
  static int counter = 0;
  const std::string path = mpisim::testing_support::unique_temp_path("generated_" + std::to_string(counter++) + ".xml");
  std::ofstream(path) << "<?xml version='1.0'?>\n<platform version=\"4.1\">\n" << cluster << "\n</platform>\n";
  return load_platform(path);
}

void expect_same(const Platform& generated, const Platform& loaded)
{
  ASSERT_EQ(generated.hosts().size(), loaded.hosts().size());
  for (size_t i = 0; i < loaded.hosts().size(); i++) {
    EXPECT_EQ(generated.hosts()[i].name, loaded.hosts()[i].name);
    EXPECT_EQ(generated.hosts()[i].speed, loaded.hosts()[i].speed);
    EXPECT_EQ(generated.hosts()[i].cores, loaded.hosts()[i].cores);
  }
  ASSERT_EQ(generated.links().size(), loaded.links().size());
  for (size_t i = 0; i < loaded.links().size(); i++) {
    EXPECT_EQ(generated.links()[i].name, loaded.links()[i].name);
    EXPECT_EQ(generated.links()[i].bandwidth, loaded.links()[i].bandwidth);
    EXPECT_EQ(generated.links()[i].latency, loaded.links()[i].latency);
    EXPECT_EQ(generated.links()[i].sharing, loaded.links()[i].sharing);
  }
  std::vector<LinkId> a, b;
  double latency_a = 0, latency_b = 0;
  const auto hosts = static_cast<HostId>(loaded.hosts().size());
  for (HostId src = 0; src < hosts; src++) {
    for (HostId dst = 0; dst < hosts; dst++) {
      generated.route(src, dst, a, latency_a);
      loaded.route(src, dst, b, latency_b);
      ASSERT_EQ(a, b) << src << " -> " << dst;
      ASSERT_EQ(latency_a, latency_b);
    }
  }
}

TEST(platform_generator, FlatClusterWithDefaults)
{
  expect_same(*generate_platform("cluster:16"),
              *from_cluster_element("<cluster id=\"cluster\" prefix=\"node-\" suffix=\"\" radical=\"0-15\" "
                                    "speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\"/>"));
}

TEST(platform_generator, FlatClusterWithEveryOption)
{
  expect_same(*generate_platform("cluster:8,id=c,prefix=n,suffix=.lab,speed=2Gf,cores=4,bw=10Gbps,lat=1us,"
                                 "sharing=SHARED,bb_bw=40Gbps,bb_lat=2us,bb_sharing=FATPIPE,router_id=gw,"
                                 "limiter=15Gbps,loopback_bw=20GBps,loopback_lat=10ns"),
              *from_cluster_element("<cluster id=\"c\" prefix=\"n\" suffix=\".lab\" radical=\"0-7\" speed=\"2Gf\" "
                                    "core=\"4\" bw=\"10Gbps\" lat=\"1us\" sharing_policy=\"SHARED\" bb_bw=\"40Gbps\" "
                                    "bb_lat=\"2us\" bb_sharing_policy=\"FATPIPE\" router_id=\"gw\" "
                                    "limiter_link=\"15Gbps\" loopback_bw=\"20GBps\" loopback_lat=\"10ns\"/>"));
}

TEST(platform_generator, Torus)
{
  expect_same(*generate_platform("torus:4x4x2,bw=10Gbps,limiter=12Gbps"),
              *from_cluster_element("<cluster id=\"torus\" prefix=\"node-\" suffix=\"\" radical=\"0-31\" "
                                    "speed=\"1Gf\" bw=\"10Gbps\" lat=\"50us\" topology=\"TORUS\" "
                                    "topo_parameters=\"4,4,2\" limiter_link=\"12Gbps\"/>"));
  // Commas work as well as 'x'.
  EXPECT_EQ(generate_platform("torus:3,5")->hosts().size(), 15u);
}

TEST(platform_generator, FatTreeParametersKeepTheirCommas)
{
  expect_same(*generate_platform("fattree:2;4,4;1,2;1,2,loopback_bw=1GBps,lat=1us"),
              *from_cluster_element("<cluster id=\"fattree\" prefix=\"node-\" suffix=\"\" radical=\"0-15\" "
                                    "speed=\"1Gf\" bw=\"125MBps\" lat=\"1us\" topology=\"FAT_TREE\" "
                                    "topo_parameters=\"2;4,4;1,2;1,2\" loopback_bw=\"1GBps\"/>"));
}

TEST(platform_generator, Dragonfly)
{
  expect_same(*generate_platform("dragonfly:3,4;4,3;5,1;2,sharing=SHARED,speed=3Gf"),
              *from_cluster_element("<cluster id=\"dragonfly\" prefix=\"node-\" suffix=\"\" radical=\"0-119\" "
                                    "speed=\"3Gf\" bw=\"125MBps\" lat=\"50us\" sharing_policy=\"SHARED\" "
                                    "topology=\"DRAGONFLY\" topo_parameters=\"3,4;4,3;5,1;2\"/>"));
}

std::string spec_error(const std::string& spec)
{
  try {
    generate_platform(spec);
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "");
    return error.message();
  }
  return "no error";
}

void expect_same_storage(const StorageSpec& generated, const StorageSpec& loaded)
{
  ASSERT_EQ(generated.disks.size(), loaded.disks.size());
  for (const auto& [host, disks] : loaded.disks) {
    ASSERT_EQ(generated.disks.count(host), 1U) << "host " << host;
    const std::vector<DiskSpec>& made = generated.disks.at(host);
    ASSERT_EQ(made.size(), disks.size());
    for (size_t i = 0; i < disks.size(); i++) {
      EXPECT_EQ(made[i].kind, disks[i].kind);
      EXPECT_DOUBLE_EQ(made[i].read_bandwidth, disks[i].read_bandwidth);
      EXPECT_DOUBLE_EQ(made[i].write_bandwidth, disks[i].write_bandwidth);
      EXPECT_DOUBLE_EQ(made[i].latency, disks[i].latency);
      EXPECT_DOUBLE_EQ(made[i].average_seek, disks[i].average_seek);
      EXPECT_DOUBLE_EQ(made[i].track_to_track_seek, disks[i].track_to_track_seek);
      EXPECT_DOUBLE_EQ(made[i].rpm, disks[i].rpm);
      EXPECT_DOUBLE_EQ(made[i].seek_window, disks[i].seek_window);
    }
  }
  ASSERT_EQ(generated.servers.size(), loaded.servers.size());
  for (size_t i = 0; i < loaded.servers.size(); i++) {
    EXPECT_EQ(generated.servers[i].host, loaded.servers[i].host);
    EXPECT_DOUBLE_EQ(generated.servers[i].cache.size, loaded.servers[i].cache.size);
    EXPECT_DOUBLE_EQ(generated.servers[i].cache.memory_bandwidth, loaded.servers[i].cache.memory_bandwidth);
    EXPECT_EQ(generated.servers[i].cache.write_behind, loaded.servers[i].cache.write_behind);
    EXPECT_DOUBLE_EQ(generated.servers[i].cache.read_ahead, loaded.servers[i].cache.read_ahead);
  }
  EXPECT_DOUBLE_EQ(generated.stripe_size, loaded.stripe_size);
  EXPECT_EQ(generated.stripe_count, loaded.stripe_count);
  EXPECT_DOUBLE_EQ(generated.open_cost, loaded.open_cost);
  EXPECT_DOUBLE_EQ(generated.close_cost, loaded.close_cost);
  EXPECT_DOUBLE_EQ(generated.request_overhead, loaded.request_overhead);
  EXPECT_DOUBLE_EQ(generated.request_size, loaded.request_size);
}

// The nvme preset is io-nvme.xml's storage: same disks and caches on the same hosts (io-0..io-3 after node-0..15).
TEST(platform_generator, NvmePresetIsTheBundledFilesStorage)
{
  auto generated = generate_platform("cluster:16,speed=50Gf,cores=64,bw=100Gbps,lat=1us,io_servers=4,disk=nvme");
  auto loaded = load_platform(MPISIM_SOURCE_DIR "/platforms/io-nvme.xml");
  ASSERT_EQ(generated->hosts().size(), 20U);
  EXPECT_EQ(generated->hosts()[15].name, "node-15");
  EXPECT_EQ(generated->hosts()[16].name, "io-0");
  EXPECT_EQ(generated->hosts()[19].name, "io-3");
  expect_same_storage(generated->storage(), loaded->storage());
}

// The nvme and hdd presets are read from the text of platforms/ compiled into the library (the installed package
// has no platforms/): it must be the files as they are now, or the presets would drift from them.
TEST(platform_generator, PresetsReadTheCompiledInTextOfTheBundledFiles)
{
  for (const char* file : {"io-nvme.xml", "pio-cluster-10.xml"}) {
    std::ifstream in(std::string(MPISIM_SOURCE_DIR "/platforms/") + file);
    std::stringstream text;
    text << in.rdbuf();
    ASSERT_FALSE(text.str().empty()) << file;
    EXPECT_EQ(bundled_platform_text(file), text.str()) << file;
  }
  EXPECT_TRUE(bundled_platform_text("graphene.xml").empty());
  EXPECT_EQ(spec_error("cluster:4,disk=tape"), "platform spec 'cluster:4,disk=tape': bad disk 'tape' (expected nvme, "
                                               "ssd or hdd)");
}

// The hdd preset is pio-cluster-10.xml's disk and cache; without io_servers every host has the disks, none serves.
TEST(platform_generator, HddPresetWithoutServersPutsDisksOnEveryHost)
{
  auto generated = generate_platform("torus:2x5,disk=hdd,disks=2");
  auto paper = load_platform(MPISIM_SOURCE_DIR "/platforms/pio-cluster-10.xml");
  const StorageSpec& storage = generated->storage();
  EXPECT_TRUE(storage.servers.empty());
  ASSERT_EQ(storage.disks.size(), 10U);
  for (const auto& [host, disks] : storage.disks) {
    ASSERT_EQ(disks.size(), 2U);
    EXPECT_EQ(disks[1].name, "hdd1");
    EXPECT_DOUBLE_EQ(disks[1].average_seek, paper->storage().disks.at(host).front().average_seek);
    EXPECT_DOUBLE_EQ(disks[1].rpm, 7200);
    EXPECT_DOUBLE_EQ(disks[1].read_bandwidth, 96.0 * 1024 * 1024);
  }
  const CacheSpec& paper_cache = paper->storage().servers.front().cache;
  auto served = generate_platform("torus:2x5,io_servers=3,disk=hdd,stripe=1MiB,stripe_count=2,io_cache=2GiB");
  ASSERT_EQ(served->storage().servers.size(), 3U);
  EXPECT_EQ(served->hosts()[served->storage().servers.front().host].name, "node-7"); // the last 3 of 10
  EXPECT_DOUBLE_EQ(served->storage().servers.front().cache.size, 2.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(served->storage().servers.front().cache.read_ahead, paper_cache.read_ahead);
  EXPECT_DOUBLE_EQ(served->storage().stripe_size, 1024 * 1024);
  EXPECT_EQ(served->storage().stripe_count, 2);
  EXPECT_DOUBLE_EQ(served->storage().open_cost, paper->storage().open_cost);
}

TEST(platform_generator, BadSpecsNameTheBadPart)
{
  EXPECT_EQ(spec_error("cluster"), "platform spec 'cluster': missing ':' after the kind (e.g. \"cluster:16\")");
  EXPECT_EQ(spec_error("mesh:4"),
            "platform spec 'mesh:4': unknown kind 'mesh' (known: cluster, torus, fattree, dragonfly, hierarchy)");
  EXPECT_EQ(spec_error("cluster:0"), "platform spec 'cluster:0': '0' is not a positive integer");
  EXPECT_EQ(spec_error("cluster:4,colour=red"),
            "platform spec 'cluster:4,colour=red': unknown option 'colour' (known: id, prefix, suffix, speed, cores, "
            "bw, lat, sharing, limiter, loopback_bw, loopback_lat, bb_bw, bb_lat, bb_sharing, router_id, "
            "io_servers, disk, disks, stripe, stripe_count, io_cache)");
  EXPECT_EQ(spec_error("cluster:4,bw=1KBps"),
            "platform spec 'cluster:4,bw=1KBps': option bw: unknown unit 'KBps' in bandwidth '1KBps' (the decimal "
            "kilo prefix is a lower-case k: write 'kBps')");
  EXPECT_EQ(spec_error("cluster:4,bw=1000"), "platform spec 'cluster:4,bw=1000': option bw: '1000' needs a unit");
  EXPECT_EQ(spec_error("cluster:4,lat=1us,lat=2us"), "platform spec 'cluster:4,lat=1us,lat=2us': option 'lat' is "
                                                     "given twice");
  EXPECT_EQ(spec_error("cluster:4,oops"), "platform spec 'cluster:4,oops': '4,oops' is not a positive integer");
  EXPECT_EQ(spec_error("torus:4x0"), "platform spec 'torus:4x0': bad torus dimension '0' in '4,0' (expected "
                                     "positive integers separated by commas)");
  EXPECT_EQ(spec_error("fattree:2;4,4;1,2"),
            "platform spec 'fattree:2;4,4;1,2': fat-tree parameters '2;4,4;1,2' must have 4 parts separated by ';': "
            "levels;children;parents;cables");
  EXPECT_EQ(spec_error("torus:2x2,bb_bw=1Gbps"),
            "platform spec 'torus:2x2,bb_bw=1Gbps': option 'bb_bw' applies to cluster: specs only");
  EXPECT_EQ(spec_error("cluster:4,sharing=FULL"),
            "platform spec 'cluster:4,sharing=FULL': bad sharing 'FULL' (expected SPLITDUPLEX, SHARED or FATPIPE)");
  EXPECT_EQ(spec_error("dragonfly:4,1;1,1;2,1;1"),
            "platform spec 'dragonfly:4,1;1,1;2,1;1': dragonfly 'dragonfly': 4 groups need at least as many routers "
            "per group (SimGrid attaches the link to group b to router b)");
}

} // namespace

// Issue 13: a spec's size is computed before anything is built, with products that saturate instead of wrapping
// around (20 dimensions of 1000 hosts is 10^60, not a small number modulo 2^64), and refused past the memory a
// platform may take. Nothing is allocated for the refused shapes: these tests run in milliseconds.
TEST(platform_generator, ShapesTooLargeForMemoryAreRefusedWithTheirSize)
{
  auto error_of = [](const std::string& spec) -> std::string {
    try {
      generate_platform(spec);
    } catch (const InputError& error) {
      return error.what();
    }
    return "(no error)";
  };
  const std::string cube = error_of("torus:1000x1000x1000");
  EXPECT_EQ(cube.rfind("platform spec 'torus:1000x1000x1000': the shape has 1000000000 hosts, which would need about "
                       "477 GiB of memory; a platform may take half of the ",
                       0),
            0u)
      << cube;
  std::string twenty = "torus:1000";
  for (int i = 1; i < 20; i++)
    twenty += "x1000";
  EXPECT_NE(error_of(twenty).find("has more than 10^19 hosts"), std::string::npos) << error_of(twenty);
  EXPECT_NE(error_of("cluster:1000000000000").find("has 1000000000000 hosts"), std::string::npos);
  EXPECT_NE(error_of("dragonfly:100000,1;100000,1;100000,1;100000").find("more than 10^19 hosts"), std::string::npos)
      << error_of("dragonfly:100000,1;100000,1;100000,1;100000");
}

// Found by the fuzz harness (the fat tree; the dragonfly has the same pattern; both inputs are in
// tests/fuzz/regressions/platform_spec/): a fat tree or dragonfly of few hosts may still have billions of cables, and
// their zones size a table of cables from the shape before any link is made. The size check now counts hosts,
// switches or routers and the links of every cable. 16 hosts with 999999991 parallel cables
// per pair: 2 x 32 * 999999991 links; 100 000 routers in one chassis: 5 * 10^9 green cables.
TEST(platform_generator, CablesCountInTheSizeOfFatTreesAndDragonflies)
{
  auto error_of = [](const std::string& spec) -> std::string {
    try {
      generate_platform(spec);
    } catch (const InputError& error) {
      return error.what();
    }
    return "(no error)";
  };
  EXPECT_NE(error_of("fattree:2;4,4;2,2;999999991,1").find("has 16 hosts (63999999484 hosts and links)"),
            std::string::npos)
      << error_of("fattree:2;4,4;2,2;999999991,1");
  EXPECT_NE(error_of("dragonfly:1,1;1,1;100000,1;1").find("has 100000 hosts (10000300000 hosts and links)"),
            std::string::npos)
      << error_of("dragonfly:1,1;1,1;100000,1;1");
  // A small shape with few cables builds as before.
  EXPECT_EQ(generate_platform("fattree:2;4,4;2,2;3,1")->hosts().size(), 16u);
}

TEST(platform_generator, SaturatingProductNeverWrapsAround)
{
  EXPECT_EQ(saturating_product(1000, 1000), 1000000u);
  EXPECT_EQ(saturating_product(uint64_t(1) << 32, uint64_t(1) << 32), UINT64_MAX);
  EXPECT_EQ(saturating_product(UINT64_MAX, 2), UINT64_MAX);
  EXPECT_EQ(saturating_product(UINT64_MAX, 1), UINT64_MAX);
}

TEST(platform_generator, SaturatingSumNeverWrapsAround)
{
  EXPECT_EQ(saturating_sum(1000, 1000), 2000u);
  EXPECT_EQ(saturating_sum(uint64_t(1) << 63, uint64_t(1) << 63), UINT64_MAX);
  EXPECT_EQ(saturating_sum(UINT64_MAX, 1), UINT64_MAX);
}

// A <cluster> radical range is sized before it is expanded: "0-2000000000" was two billion ints first.
TEST(platform_generator, HugeRadicalRangesAreRefusedBeforeExpanding)
{
  try {
    from_cluster_element(R"(<cluster id="c" prefix="n" suffix="" radical="0-2000000000,5" speed="1Gf" bw="1GBps")"
                         R"( lat="1us"/>)");
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.line(), 3);
    EXPECT_NE(error.message().find("radical '0-2000000000,5' has 2000000002 hosts"), std::string::npos) << error.what();
  }
}
