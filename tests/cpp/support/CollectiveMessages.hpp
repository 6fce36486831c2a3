// Test support for collective algorithms: a network model that records every message, the call each rank makes in
// the message-pattern tests, a runner, and a registry of the expected messages of each algorithm on 5 ranks (each
// mpi_coll_<op>_test.cpp registers those of its algorithms; mpi_collectives_test.cpp checks that every registered
// algorithm has one and sends exactly that).
#pragma once

#include "models/NetworkModel.hpp"
#include "mpi/Rank.hpp"
#include "mpi/Simulation.hpp"
#include "mpi/collectives/Collectives.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::testing_support {

// ------------------------------------------------------------------------------------------------------------------
// A network model that records every message
// ------------------------------------------------------------------------------------------------------------------

struct Sent {
  int source; // host = rank
  int destination;
  double bytes;
  auto operator<=>(const Sent&) const = default;
};

inline std::vector<Sent>& traffic()
{
  static std::vector<Sent> sent;
  return sent;
}

class CountingNetworkModel : public models::NetworkModel {
public:
  explicit CountingNetworkModel(const models::NetworkModelContext& context)
      : parameters_(models::NetworkModelRegistry::find("fluid").parameters),
        inner_(models::NetworkModelRegistry::find("fluid").factory({context.engine, context.platform, parameters_}))
  {
  }
  models::ProtocolThresholds protocol_thresholds() const override { return inner_->protocol_thresholds(); }
  double send_overhead(double payload) const override { return inner_->send_overhead(payload); }
  double isend_overhead(double payload) const override { return inner_->isend_overhead(payload); }
  double receive_overhead(double payload, models::Protocol protocol) const override
  {
    return inner_->receive_overhead(payload, protocol);
  }
  models::Transfer transfer(const models::TransferRequest& request) override
  {
    traffic().push_back({static_cast<int>(request.src), static_cast<int>(request.dst), request.payload});
    return inner_->transfer(request);
  }

private:
  models::Parameters parameters_;
  std::unique_ptr<models::NetworkModel> inner_;
};

inline const models::RegisterNetworkModel kRegisterCounting({
    "test-counting",
    "the fluid model, recording every message (tests only)",
    "mpi_collectives_test.cpp",
    {},
    [](const models::NetworkModelContext& context) { return std::make_unique<CountingNetworkModel>(context); },
});

// What each rank passes to the collective, by operation, on P ranks. Sizes differ by rank and peer wherever the
// operation allows it, so that a message sent with the wrong size shows.
inline constexpr double B = 1000;
inline constexpr int kRoot = 2;

inline mpi::CollectiveCall call_for(mpi::Collective op, int me, int P)
{
  mpi::CollectiveCall call;
  call.op = op;
  call.root = kRoot;
  call.bytes = B;
  call.recv_bytes = B;
  switch (op) {
  case mpi::Collective::Alltoallv:
  case mpi::Collective::Alltoallw: // blocks of per-peer datatypes, packed: bytes as in alltoallv
    for (int p = 0; p < P; ++p) {
      call.send_counts.push_back(100 * me + p + 1); // me -> p
      call.recv_counts.push_back(100 * p + me + 1); // p -> me
    }
    break;
  case mpi::Collective::Gatherv:
  case mpi::Collective::Allgatherv:
    call.bytes = 10 * (me + 1);
    for (int p = 0; p < P; ++p)
      call.recv_counts.push_back(10 * (p + 1));
    break;
  case mpi::Collective::Scatterv:
    for (int p = 0; p < P; ++p)
      call.send_counts.push_back(10 * (p + 1));
    call.recv_bytes = 10 * (me + 1);
    break;
  case mpi::Collective::ReduceScatter:
    for (int p = 0; p < P; ++p)
      call.recv_counts.push_back(10 * (p + 1));
    break;
  default: break;
  }
  return call;
}

// Runs one collective on P ranks (one per host of a P-host cluster) with `algorithm` forced for `op` (or the default
// selector's choice when empty); returns the messages, sorted, and the date each rank returned.
struct CollectiveRun {
  std::vector<Sent> messages;
  std::vector<double> returned;
};

inline CollectiveRun run_collective(mpi::Collective op, const std::string& algorithm, int P,
                                    const std::string& model = "test-counting", const std::string& platform = "",
                                    const std::function<mpi::CollectiveCall(int me)>& make_call = {})
{
  traffic().clear();
  mpi::SimulationOptions options;
  options.platform = platform.empty() ? "cluster:" + std::to_string(P) : platform;
  options.model = model;
  if (not algorithm.empty())
    options.collective_algorithms[mpi::collective_name(op)] = algorithm;
  mpi::Simulation simulation(options, P);
  CollectiveRun run;
  run.returned.assign(P, -1);
  simulation.world().launch([&](mpi::Rank& rank) {
    const mpi::CollectiveCall call = make_call ? make_call(rank.world_rank()) : call_for(op, rank.world_rank(), P);
    simulation.collectives().run(rank, rank.world().comm_world(), call);
    run.returned[rank.world_rank()] = rank.world().engine().now();
  });
  simulation.engine().run();
  run.messages = traffic();
  std::sort(run.messages.begin(), run.messages.end());
  return run;
}

// Helpers to write the expected lists.
using Messages = std::vector<Sent>;
inline Messages all_pairs(int P, const std::function<double(int source, int destination)>& bytes)
{
  Messages out;
  for (int i = 0; i < P; ++i)
    for (int j = 0; j < P; ++j)
      if (i != j)
        out.push_back({i, j, bytes(i, j)});
  return out;
}
inline Messages to_root(int P, int root, const std::function<double(int source)>& bytes)
{
  Messages out;
  for (int i = 0; i < P; ++i)
    if (i != root)
      out.push_back({i, root, bytes(i)});
  return out;
}
inline Messages from_root(int P, int root, const std::function<double(int destination)>& bytes)
{
  Messages out;
  for (int i = 0; i < P; ++i)
    if (i != root)
      out.push_back({root, i, bytes(i)});
  return out;
}
inline Messages operator+(Messages a, const Messages& b)
{
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

inline std::string describe(const Messages& messages)
{
  std::string out;
  for (const Sent& m : messages)
    out += "  " + std::to_string(m.source) + " -> " + std::to_string(m.destination) + ": " +
           std::to_string(static_cast<long long>(m.bytes)) + " B\n";
  return out;
}

// Expected messages of one algorithm on 5 ranks (root 2, B bytes; call_for gives the v-variants' sizes), by
// "operation/algorithm".
using Expectation = std::function<Messages()>;
inline std::map<std::string, Expectation>& expected_messages()
{
  static std::map<std::string, Expectation> registry;
  return registry;
}
struct ExpectMessages {
  ExpectMessages(const std::string& key, Expectation expectation) { expected_messages()[key] = std::move(expectation); }
};

} // namespace mpisim::testing_support
