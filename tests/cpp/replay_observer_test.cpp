// Observers see every replayed action and every message, with the dates SimGrid 3.32 reports for the same trace.
#include "mpi/Observer.hpp"
#include "replay/Replayer.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace mpisim;

namespace {

struct Recorder : mpi::Observer {
  void call(const mpi::CallRecord& record) override { calls.push_back(record); }
  void message(const mpi::MessageRecord& record) override { messages.push_back(record); }
  std::vector<mpi::CallRecord> calls;
  std::vector<mpi::MessageRecord> messages;
};

// examples/replay-basic: SimGrid's per-action log gives "0 send 1 0 1e6" from 1.0 to 1.015491, and "3 send 0 7 1e6"
// from 0 to 1.030981: rank 0 posts the matching irecv at 1.015491 and the message then takes 0.015491.
TEST(replay_observer, CallsAndMessagesCarrySimGridsDates)
{
  const std::string folder = std::string(MPISIM_SOURCE_DIR) + "/examples/replay-basic/";
  Recorder recorder;
  replay::ReplayOptions options;
  options.trace = folder + "index.txt";
  options.simulation.platform = folder + "cluster4.xml";
  options.observers.push_back(&recorder);
  replay::ReplayResult result = replay::replay(options);

  // Every action but init and finalize is reported: 36 actions - 8.
  EXPECT_EQ(recorder.calls.size(), result.actions - 8);
  const mpi::CallRecord* send = nullptr;
  for (const auto& call : recorder.calls)
    if (call.rank == 0 && std::strcmp(call.operation, "send") == 0)
      send = &call;
  ASSERT_NE(send, nullptr);
  EXPECT_NEAR(send->start, 1.0, 1e-9);
  EXPECT_NEAR(send->end, 1.015491, 0.5e-6);
  EXPECT_EQ(send->peer, 1);
  EXPECT_EQ(send->bytes, 1e6);

  // The 1e6-byte message from rank 3 to rank 0 (tag 7): posted at 0, matched when rank 0 posts its irecv at
  // 1.015491, arrived 0.015491 later.
  const mpi::MessageRecord* from3 = nullptr;
  size_t collective_messages = 0;
  for (const auto& message : recorder.messages) {
    if (message.source == 3 && message.destination == 0 && message.tag == 7)
      from3 = &message;
    collective_messages += message.collective() ? 1 : 0;
  }
  ASSERT_NE(from3, nullptr);
  EXPECT_EQ(from3->posted, 0.0);
  EXPECT_NEAR(from3->started, 1.015491, 0.5e-6);
  EXPECT_NEAR(from3->arrived, 1.030981, 0.5e-6);
  // bcast (binomial, 3 messages), allreduce (reduce: 3 + bcast: 3), barrier (3 + 3), alltoall (4 x 3 = 12).
  EXPECT_EQ(collective_messages, 3u + 6u + 6u + 12u);
}

} // namespace
