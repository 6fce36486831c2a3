// The BXI NIC model (models/BxiNic.hpp) alone, without Portals: operations are plain NicOperations recording the dates
// the NIC calls them back at. The single-transfer timings of each payload mode are tested end to end with Portals
// programs (tests/python/test_portals.py); here, what needs several transfers at once: the PCIe contention.
#include "models/BxiNic.hpp"
#include "mpi/Simulation.hpp"

#include <gtest/gtest.h>

namespace mpisim {
namespace {

using models::bxi::BxiFabric;
using models::bxi::BxiSettings;
using models::bxi::NicKind;
using models::bxi::NicOperation;
using models::bxi::TargetAnswer;

class RecordedPut : public NicOperation {
public:
  void on_send(uint32_t fail) override { send = fail == 0 ? kernel::Engine::current().now() : -1; }
  TargetAnswer on_target() override
  {
    target = kernel::Engine::current().now();
    return {0, true, 0};
  }
  void on_answer(uint32_t fail) override { answer = fail == 0 ? kernel::Engine::current().now() : -1; }
  double send = 0, target = 0, answer = 0;
};

// The engine's run ends when its actors do: an issuing actor stays until the NIC is done with its operations.
void wait_answers(kernel::Engine& engine, const std::vector<std::shared_ptr<RecordedPut>>& ops)
{
  for (const auto& op : ops)
    while (op->answer == 0)
      engine.sleep(1e-6);
}

std::shared_ptr<RecordedPut> put(platform::HostId src, platform::HostId dst, int src_rank, int dst_rank, double bytes)
{
  auto op = std::make_shared<RecordedPut>();
  op->kind = NicKind::Put;
  op->src_node = src;
  op->dst_node = dst;
  op->src_process = src_rank;
  op->dst_process = dst_rank;
  op->request_payload = bytes;
  return op;
}

// Settings that leave only the PCIe reads: free commands, no NIC delays, no PCIe latency, fast cables.
BxiSettings pci_only()
{
  BxiSettings s;
  s.model_pci_commands = false;
  s.tx_delay = 0;
  s.rx_delay = 0;
  s.pci_latency = 0;
  s.quick_acks = true;
  return s;
}

// One 1 MB DMA Put alone: the read goes at the per-transfer cap, 12.5 GB/s: 80 us (the 100 GB/s cables take 10 us).
// The PUT is raised after the read, plus the receive side's pipeline fill (the last 512 B packet: 40.96 ns).
TEST(models_bxi, LoneDmaReadIsCappedPerTransfer)
{
  auto platform = mpi::load_or_generate_platform("cluster:2,bw=100GBps,lat=0s");
  auto owned_engine = std::make_unique<kernel::Engine>();
  kernel::Engine& engine = *owned_engine;
  BxiFabric fabric(engine, *platform, pci_only());
  auto op = put(0, 1, 0, 1, 1e6);
  engine.spawn("rank 0", [&] {
    fabric.issue(op);
    wait_answers(engine, {op});
  });
  engine.run();
  EXPECT_NEAR(op->target, 1e6 / 12.5e9 + 512 / 12.5e9, 1e-9);
  EXPECT_NEAR(op->answer, op->target, 1e-9); // quick ACK
  owned_engine.reset();                      // before the fabric, whose transfers may still be in its event list
}

// A Get answered with a 1 MB response: the response's read is a DMA on the target's PCIe.
class RecordedGet : public RecordedPut {
public:
  TargetAnswer on_target() override
  {
    target = kernel::Engine::current().now();
    return {0, true, response};
  }
  double response = 0;
};

// Node 0 reads two 1 MB payloads at once: its own Put's (request network) and the response to node 1's Get
// (response network; the 64 B Get request arrives within a nanosecond). The transmit stages of the two virtual
// networks work in parallel, so both reads share node 0's 15.75 GB/s PCIe link, 7.875 GB/s each, and end at
// 1e6 / 7.875e9 = 126.98 us instead of 80 us alone; the cables (100 GB/s, 50 each) are not the limit. The PUT and
// the REPLY come the receive side's pipeline fill (512 B at 12.5 GB/s: 40.96 ns) later.
TEST(models_bxi, ConcurrentDmaReadsShareThePciLink)
{
  auto platform = mpi::load_or_generate_platform("cluster:2,bw=100GBps,lat=0s");
  auto owned_engine = std::make_unique<kernel::Engine>();
  kernel::Engine& engine = *owned_engine;
  BxiFabric fabric(engine, *platform, pci_only());
  auto write = put(0, 1, 0, 1, 1e6);
  auto read = std::make_shared<RecordedGet>();
  read->kind = NicKind::Get;
  read->src_node = 1;
  read->dst_node = 0;
  read->src_process = 1;
  read->dst_process = 0;
  read->wants_send = false;
  read->response = 1e6;
  engine.spawn("rank 0", [&] {
    fabric.issue(write);
    wait_answers(engine, {write});
  });
  engine.spawn("rank 1", [&] {
    fabric.issue(read);
    wait_answers(engine, {read});
  });
  engine.run();
  const double fill = 512 / 12.5e9;
  EXPECT_NEAR(write->target, 1e6 / 7.875e9 + fill, 3e-9);
  EXPECT_NEAR(read->answer, 1e6 / 7.875e9 + fill, 3e-9);
  EXPECT_GT(write->target, 1e6 / 12.5e9 * 1.5); // much slower than alone (80 us): the shared link is the limit
  owned_engine.reset();
}

// Corruption draws are seeded: the same seed loses the same messages, and E2E retransmits each one.
TEST(models_bxi, CorruptionIsDeterministicAndRecovered)
{
  auto platform = mpi::load_or_generate_platform("cluster:2");
  auto run = [&](uint64_t seed) {
    BxiSettings s;
    s.corruption_rate = 0.3;
    s.corruption_seed = seed;
    s.retry_timeout = 10e-6;
    s.max_retries = 50;
    auto owned_engine = std::make_unique<kernel::Engine>();
    kernel::Engine& engine = *owned_engine;
    BxiFabric fabric(engine, *platform, s);
    std::vector<std::shared_ptr<RecordedPut>> ops;
    for (int i = 0; i < 20; ++i)
      ops.push_back(put(0, 1, 0, 1, 8));
    engine.spawn("rank 0", [&] {
      for (auto& op : ops)
        fabric.issue(op);
      wait_answers(engine, ops);
    });
    engine.run();
    for (auto& op : ops)
      EXPECT_GT(op->answer, 0); // every one acknowledged in the end
    owned_engine.reset();
    return std::make_pair(fabric.counters().retransmissions, ops.back()->answer);
  };
  const auto a = run(7);
  const auto b = run(7);
  EXPECT_GT(a.first, 0u);
  EXPECT_EQ(a, b);
}

// Flow control per node pair against per process pair. Two processes of node 0 (ranks 0 and 1) each Put 8 B to their
// own process of node 1 (ranks 2 and 3). No PCIe, no NIC delay, no E2E (its BXI ACK of the first ACK would share the
// cable with the held second Put); two 1 GB/s cables of 1 us: a Put is 72 B on the wire
// (2.072 us), an ACK 64 B (2.064 us). Free: the second Put follows the first on the cable (72 ns later), PUT at 2.144,
// ACK at 4.208. One request in flight per node pair: the second waits for the first's ACK (4.136), so its ACK is at
// 4.136 + 2.072 + 2.064 = 8.272. One per process pair: the two pairs differ, nothing waits.
TEST(models_bxi, FlowControlPerNodePairAndPerProcessPair)
{
  auto platform = mpi::load_or_generate_platform("cluster:2,bw=1GBps,lat=1us");
  auto second_ack = [&](int per_process, int per_node) {
    BxiSettings s;
    s.model_pci = false;
    s.e2e = false;
    s.tx_delay = 0;
    s.rx_delay = 0;
    s.max_inflight_process_pair = per_process;
    s.max_inflight_node_pair = per_node;
    auto owned_engine = std::make_unique<kernel::Engine>();
    kernel::Engine& engine = *owned_engine;
    BxiFabric fabric(engine, *platform, s);
    auto first = put(0, 1, 0, 2, 8);
    auto second = put(0, 1, 1, 3, 8);
    engine.spawn("rank 0", [&] {
      fabric.issue(first);
      wait_answers(engine, {first});
    });
    engine.spawn("rank 1", [&] {
      fabric.issue(second);
      wait_answers(engine, {second});
    });
    engine.run();
    owned_engine.reset();
    EXPECT_NEAR(first->answer, 4.136e-6, 1e-9);
    return second->answer;
  };
  EXPECT_NEAR(second_ack(0, 0), 4.208e-6, 1e-9);
  EXPECT_NEAR(second_ack(0, 1), 8.272e-6, 1e-9);
  EXPECT_NEAR(second_ack(1, 0), 4.208e-6, 1e-9);
}

} // namespace
} // namespace mpisim
