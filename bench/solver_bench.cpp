// Micro-benchmark of the max-min solver: 10 000 flows through one backbone, arriving and finishing as in a
// fluid network simulation, with completion dates rescheduled from modified() after every solve.
//
// Not part of the build. From the project root:
//   c++ -O2 -DNDEBUG -std=c++20 -I src bench/solver_bench.cpp src/solver/MaxMinSolver.cpp -o /tmp/solver_bench
//   /tmp/solver_bench
//
// Platform: 200 hosts, each with a split-duplex private link (up and down, 1 Gbps each way) to a shared
// 10 Gbps backbone. A flow from s to d uses up(s), the backbone and down(d) with coefficient 1, and down(s), up(d)
// with coefficient 0.05 for its acknowledgements, so all flows form one component: every arrival or departure
// re-solves all concurrent flows, the worst case for incremental solving. Flows arrive uniformly within the first
// second and carry exponentially distributed sizes (mean 400 kB, 4 GB in total, about 3.2 s of backbone time),
// so thousands are concurrent at the peak.
#include "solver/IndexedMinHeap.hpp"
#include "solver/MaxMinSolver.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

using namespace mpisim::solver;

namespace {

constexpr int kFlowCount = 10000;
constexpr int kHostCount = 200;
constexpr double kHostLinkBandwidth = 1.25e8; // bytes per second, each direction
constexpr double kBackboneBandwidth = 1.25e9;
constexpr double kArrivalWindow = 1.0;   // seconds
constexpr double kMeanFlowSize = 4e5;    // bytes
constexpr double kAckCoefficient = 0.05; // reverse-direction traffic of a flow

struct Arrival {
  double time;
  int source;
  int destination;
  double size;
};

struct Flow {
  double remaining = 0; // bytes, as of last_update
  double last_update = 0;
  double rate = 0;
};

std::vector<Arrival> draw_arrivals()
{
  std::mt19937 random(42);
  std::uniform_real_distribution<double> when(0, kArrivalWindow);
  std::uniform_int_distribution<int> host(0, kHostCount - 1);
  std::exponential_distribution<double> size(1 / kMeanFlowSize);
  std::vector<Arrival> arrivals(kFlowCount);
  for (Arrival& arrival : arrivals) {
    arrival.time = when(random);
    arrival.source = host(random);
    do
      arrival.destination = host(random);
    while (arrival.destination == arrival.source);
    arrival.size = size(random);
  }
  std::sort(arrivals.begin(), arrivals.end(), [](const Arrival& a, const Arrival& b) { return a.time < b.time; });
  return arrivals;
}

} // namespace

int main()
{
  MaxMinSolver solver;
  CnstId backbone = solver.add_constraint(kBackboneBandwidth, Sharing::Shared);
  std::vector<CnstId> up(kHostCount);
  std::vector<CnstId> down(kHostCount);
  for (int host = 0; host < kHostCount; ++host) {
    up[host] = solver.add_constraint(kHostLinkBandwidth, Sharing::Shared);
    down[host] = solver.add_constraint(kHostLinkBandwidth, Sharing::Shared);
  }

  std::vector<Arrival> arrivals = draw_arrivals();
  std::vector<Flow> flows;    // by variable id
  IndexedMinHeap completions; // flow id by completion date, moved in place when its rate changes
  size_t next_arrival = 0;
  size_t solve_count = 0;
  size_t peak_concurrency = 0;
  size_t reported_total = 0;
  double now = 0;
  std::chrono::duration<double> solve_time{0};
  auto start = std::chrono::steady_clock::now();

  while (next_arrival < arrivals.size() || !completions.empty()) {
    bool arrival_first =
        next_arrival < arrivals.size() && (completions.empty() || arrivals[next_arrival].time <= completions.top_key());
    if (arrival_first) {
      const Arrival& arrival = arrivals[next_arrival++];
      now = arrival.time;
      VarId v = solver.add_variable(1, -1);
      solver.expand(up[arrival.source], v, 1);
      solver.expand(backbone, v, 1);
      solver.expand(down[arrival.destination], v, 1);
      solver.expand(down[arrival.source], v, kAckCoefficient);
      solver.expand(up[arrival.destination], v, kAckCoefficient);
      if (flows.size() <= v) {
        flows.resize(v + 1);
        completions.reserve_ids(v + 1);
      }
      flows[v] = {arrival.size, now, 0};
    } else {
      VarId v = completions.top_id();
      now = completions.top_key();
      completions.pop();
      solver.remove_variable(v);
    }

    auto solve_start = std::chrono::steady_clock::now();
    solver.solve();
    solve_time += std::chrono::steady_clock::now() - solve_start;
    ++solve_count;
    peak_concurrency = std::max(peak_concurrency, solver.variable_count());
    reported_total += solver.modified().size();

    for (VarId v : solver.modified()) {
      Flow& flow = flows[v];
      flow.remaining = std::max(0.0, flow.remaining - flow.rate * (now - flow.last_update));
      flow.last_update = now;
      flow.rate = solver.value(v);
      if (flow.rate <= 0)
        continue; // cannot happen here: every flow crosses the backbone
      double date = now + flow.remaining / flow.rate;
      if (completions.contains(v))
        completions.update(v, date);
      else
        completions.push(v, date);
    }
  }

  std::chrono::duration<double> total = std::chrono::steady_clock::now() - start;
  std::printf("%d flows, %zu solves, peak concurrency %zu, %.0f variables recomputed per solve on average\n",
              kFlowCount, solve_count, peak_concurrency, static_cast<double>(reported_total) / solve_count);
  std::printf("simulated makespan %.3f s\n", now);
  std::printf("solve(): %.3f s in total, %.1f us per solve; whole loop %.3f s\n", solve_time.count(),
              1e6 * solve_time.count() / solve_count, total.count());
  return 0;
}
