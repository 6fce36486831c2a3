// Micro-benchmark of the max-min solver: 10 000 flows through one backbone, arriving and finishing as in a
// fluid network simulation, with completion dates rescheduled from modified() after every solve.
//
// Not part of the build. From the project root:
//   c++ -O2 -DNDEBUG -std=c++20 -I src bench/solver_bench.cpp src/solver/MaxMinSolver.cpp -o /tmp/solver_bench
//   /tmp/solver_bench [backbone|lazy]   (both workloads without an argument)
//
// Platform: 200 hosts, each with a split-duplex private link (up and down, 1 Gbps each way) to a shared
// 10 Gbps backbone. A flow from s to d uses up(s), the backbone and down(d) with coefficient 1, and down(s), up(d)
// with coefficient 0.05 for its acknowledgements, so all flows form one component: every arrival or departure
// re-solves all concurrent flows, the worst case for incremental solving. Flows arrive uniformly within the first
// second and carry exponentially distributed sizes (mean 400 kB, 4 GB in total, about 3.2 s of backbone time),
// so thousands are concurrent at the peak.
//
// Second workload, `lazy`: SimGrid's lazy marking on a network shaped like online NAS LU on 64 ranks of graphene (see
// lazy_main() below): about a hundred concurrent flows, most of them through the two cabinets' shared links, each
// flow disabled while it pays its latency, then enabled, then removed, one change per solve.
#include "solver/IndexedMinHeap.hpp"
#include "solver/MaxMinSolver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
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

// Graphene's first 64 hosts: cabinet 0 holds hosts 0-38, cabinet 1 hosts 39-63. Each host has an up and a down link
// (1 Gbps) and a shared limiter (1.5 Gbps); each cabinet a shared limiter (13 Gbps) and a split-duplex uplink (10
// Gbps each way). A flow crosses up(s), limiter(s), [limiter(A), uplink-up(A), uplink-down(B), limiter(B)], limiter(d),
// down(d) with coefficient 1 and its way back with 0.05 (cross traffic), expanded in that order as the flow model
// does. Ranks talk to their neighbours on an 8 x 8 grid, as LU's SSOR sweeps do; sizes are exponential (mean 200 kB),
// arrivals Poisson, and each flow pays a 48 us latency disabled (penalty 0) before it gets bandwidth. Rates are
// rescheduled in modified_in_simgrid_order(); the checksum of every value read makes a change of any bit visible.
int lazy_main()
{
  constexpr int kHosts = 64;
  constexpr int kFirstOfCabinet1 = 39;
  constexpr int kLazyFlowCount = 50000;
  constexpr double kMeanSize = 2e5;
  constexpr double kMeanGap = 5e-5; // seconds between arrivals: 4 GB/s offered, 2/3 of the host limiters
  constexpr double kLatency = 48e-6;
  MaxMinSolver solver;
  solver.set_marking(Marking::SimGridLazy);
  std::vector<CnstId> up(kHosts), down(kHosts), limiter(kHosts);
  for (int host = 0; host < kHosts; ++host) {
    up[host] = solver.add_constraint(1.25e8, Sharing::Shared);
    down[host] = solver.add_constraint(1.25e8, Sharing::Shared);
    limiter[host] = solver.add_constraint(1.875e8, Sharing::Shared);
  }
  CnstId cabinet_limiter[2], uplink_up[2], uplink_down[2];
  for (int cabinet = 0; cabinet < 2; ++cabinet) {
    cabinet_limiter[cabinet] = solver.add_constraint(1.625e9, Sharing::Shared);
    uplink_up[cabinet] = solver.add_constraint(1.25e9, Sharing::Shared);
    uplink_down[cabinet] = solver.add_constraint(1.25e9, Sharing::Shared);
  }
  auto cabinet_of = [](int host) { return host < kFirstOfCabinet1 ? 0 : 1; };
  auto expand_route = [&](VarId v, int from, int to, double coefficient) {
    solver.expand(up[from], v, coefficient);
    solver.expand(limiter[from], v, coefficient);
    if (cabinet_of(from) != cabinet_of(to)) {
      solver.expand(cabinet_limiter[cabinet_of(from)], v, coefficient);
      solver.expand(uplink_up[cabinet_of(from)], v, coefficient);
      solver.expand(uplink_down[cabinet_of(to)], v, coefficient);
      solver.expand(cabinet_limiter[cabinet_of(to)], v, coefficient);
    }
    solver.expand(limiter[to], v, coefficient);
    solver.expand(down[to], v, coefficient);
  };

  std::mt19937 random(7);
  std::exponential_distribution<double> gap(1 / kMeanGap);
  std::exponential_distribution<double> size(1 / kMeanSize);
  std::uniform_int_distribution<int> rank(0, kHosts - 1);
  std::uniform_int_distribution<int> direction(0, 3);
  auto neighbour_of = [&](int r) {
    for (;;) {
      const int row = r / 8, column = r % 8;
      switch (direction(random)) {
      case 0:
        if (column > 0)
          return r - 1;
        break;
      case 1:
        if (column < 7)
          return r + 1;
        break;
      case 2:
        if (row > 0)
          return r - 8;
        break;
      default:
        if (row < 7)
          return r + 8;
        break;
      }
    }
  };

  std::vector<Flow> flows;     // by variable id
  IndexedMinHeap completions;  // flow id by completion date
  IndexedMinHeap latency_ends; // flow id by the end of its latency
  int arrived = 0;
  double next_arrival = gap(random);
  double now = 0;
  size_t solve_count = 0, peak_concurrency = 0, reported_total = 0;
  uint64_t checksum = 0;
  std::chrono::duration<double> solve_time{0};
  auto start = std::chrono::steady_clock::now();
  while (arrived < kLazyFlowCount || !completions.empty() || !latency_ends.empty()) {
    double next_completion = completions.empty() ? INFINITY : completions.top_key();
    double next_latency_end = latency_ends.empty() ? INFINITY : latency_ends.top_key();
    double next_start = arrived < kLazyFlowCount ? next_arrival : INFINITY;
    if (next_start <= next_completion && next_start <= next_latency_end) {
      now = next_start;
      ++arrived;
      next_arrival = now + gap(random);
      const int from = rank(random);
      const int to = neighbour_of(from);
      VarId v = solver.add_variable(0, -1);
      expand_route(v, from, to, 1);
      expand_route(v, to, from, 0.05);
      if (flows.size() <= v) {
        flows.resize(v + 1);
        completions.reserve_ids(v + 1);
        latency_ends.reserve_ids(v + 1);
      }
      flows[v] = {size(random), now, 0};
      latency_ends.push(v, now + kLatency);
    } else if (next_latency_end <= next_completion) {
      now = next_latency_end;
      VarId v = latency_ends.top_id();
      latency_ends.pop();
      flows[v].last_update = now;
      solver.set_penalty(v, 1);
    } else {
      now = next_completion;
      VarId v = completions.top_id();
      completions.pop();
      solver.remove_variable(v);
    }

    auto solve_start = std::chrono::steady_clock::now();
    solver.solve();
    solve_time += std::chrono::steady_clock::now() - solve_start;
    ++solve_count;
    peak_concurrency = std::max(peak_concurrency, solver.variable_count());
    reported_total += solver.modified_in_simgrid_order().size();

    for (VarId v : solver.modified_in_simgrid_order()) {
      Flow& flow = flows[v];
      if (latency_ends.contains(v))
        continue; // disabled: no bandwidth yet
      flow.remaining = std::max(0.0, flow.remaining - flow.rate * (now - flow.last_update));
      flow.last_update = now;
      flow.rate = solver.value(v);
      uint64_t bits;
      std::memcpy(&bits, &flow.rate, sizeof bits);
      checksum = (checksum ^ bits ^ v) * 0x100000001b3ULL;
      if (flow.rate <= 0) {
        if (completions.contains(v))
          completions.update(v, INFINITY);
        continue;
      }
      double date = now + flow.remaining / flow.rate;
      if (completions.contains(v))
        completions.update(v, date);
      else
        completions.push(v, date);
    }
  }
  std::chrono::duration<double> total = std::chrono::steady_clock::now() - start;
  std::printf("lazy (LU-shaped): %d flows, %zu solves, peak concurrency %zu, %.0f variables recomputed per solve on "
              "average\n",
              kLazyFlowCount, solve_count, peak_concurrency, static_cast<double>(reported_total) / solve_count);
  std::printf("simulated makespan %.6f s, checksum %016llx\n", now, static_cast<unsigned long long>(checksum));
  std::printf("solve(): %.3f s in total, %.2f us per solve; whole loop %.3f s\n", solve_time.count(),
              1e6 * solve_time.count() / solve_count, total.count());
  return 0;
}

int backbone_main()
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

} // namespace

int main(int argc, char** argv)
{
  const std::string which = argc > 1 ? argv[1] : "";
  if (which.empty() || which == "backbone")
    backbone_main();
  if (which.empty() || which == "lazy")
    lazy_main();
  return 0;
}
