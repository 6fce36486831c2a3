// Resources: ComputeResources against the sharing model it replaces (one max-min constraint per host, a bounded
// variable per computation, driven by kernel::SharingModel): the same end dates to the bit, in the same order.
#include "kernel/SharingModel.hpp"
#include "resources/ComputeResources.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace mpisim;

namespace {

// What ComputeResources did before it computed shares itself: Cas01 through the solver and the sharing model.
class SolvedCompute {
public:
  SolvedCompute(kernel::Engine& engine, const std::vector<resources::CpuSpec>& hosts)
      : model_(engine, kernel::EventSource::Hosts), hosts_(hosts)
  {
    for (const resources::CpuSpec& host : hosts)
      constraints_.push_back(model_.solver().add_constraint(host.speed * host.cores, solver::Sharing::Shared));
  }
  std::shared_ptr<kernel::Activity> execute(uint32_t host, double flops)
  {
    auto action = std::make_shared<Action>(flops);
    solver::VarId variable = model_.solver().add_variable(1.0, hosts_[host].speed);
    model_.solver().expand(constraints_[host], variable, 1.0);
    model_.start(action, variable);
    return action;
  }

private:
  struct Action : kernel::SharedAction {
    explicit Action(double flops) : SharedAction(flops, 1.0) {}
    std::string describe() const override { return "computation"; }
  };
  kernel::SharingModel model_;
  std::vector<resources::CpuSpec> hosts_;
  std::vector<solver::CnstId> constraints_;
};

struct Step {
  uint32_t host;
  double flops;
  double sleep_before; // 0: none
};

struct End {
  int actor;
  uint64_t date_bits;
  bool operator==(const End&) const = default;
};

struct Outcome {
  std::vector<End> ends;
  uint64_t fingerprint;
};

template <class Cpu>
Outcome run(const std::vector<resources::CpuSpec>& hosts, const std::vector<std::vector<Step>>& programs)
{
  kernel::Engine engine;
  Cpu cpu(engine, hosts);
  Outcome outcome;
  for (size_t a = 0; a < programs.size(); ++a)
    engine.spawn("actor " + std::to_string(a), [&, a] {
      for (const Step& step : programs[a]) {
        if (step.sleep_before > 0)
          engine.sleep(step.sleep_before);
        auto computation = cpu.execute(step.host, step.flops);
        engine.wait(*computation);
        outcome.ends.push_back({static_cast<int>(a), std::bit_cast<uint64_t>(engine.now())});
      }
    });
  engine.run();
  outcome.fingerprint = engine.fingerprint();
  return outcome;
}

// Actors computing on random hosts, often several on one host (more than its cores: shared; fewer: one core each),
// with equal amounts at equal dates so that same-date ends are common.
std::vector<std::vector<Step>> random_programs(std::mt19937_64& random, uint32_t hosts, int actors, int steps)
{
  const double amounts[] = {1e6, 2.5e6, 1e9, 3.3e7, 7.77e8, 1e6};
  std::vector<std::vector<Step>> programs(static_cast<size_t>(actors));
  for (auto& program : programs)
    for (int s = 0; s < steps; ++s) {
      Step step{static_cast<uint32_t>(random() % hosts), amounts[random() % 6], 0};
      if (random() % 4 == 0)
        step.sleep_before = (random() % 3 + 1) * 1e-4;
      if (random() % 5 == 0)
        step.flops *= 1.0 + static_cast<double>(random() % 1000) / 997.0;
      program.push_back(step);
    }
  return programs;
}

TEST(ComputeResources, EndsAsTheSharingModelToTheBitOverManySpeedsCoresAndCrowdings)
{
  std::mt19937_64 random(15);
  const double speeds[] = {1e9, 8.5e9, 3.3e9, 1.7e10, 2.39e9};
  size_t compared = 0;
  size_t shared_ends = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<resources::CpuSpec> hosts;
    const uint32_t host_count = static_cast<uint32_t>(random() % 4 + 1);
    for (uint32_t h = 0; h < host_count; ++h)
      hosts.push_back({speeds[random() % 5], static_cast<int>(random() % 4 + 1)});
    const auto programs = random_programs(random, host_count, static_cast<int>(random() % 9 + 1), 12);
    const Outcome solved = run<SolvedCompute>(hosts, programs);
    const Outcome direct = run<resources::ComputeResources>(hosts, programs);
    ASSERT_EQ(solved.ends, direct.ends) << "trial " << trial;
    EXPECT_EQ(solved.fingerprint, direct.fingerprint) << "trial " << trial;
    compared += solved.ends.size();
    for (size_t i = 1; i < solved.ends.size(); ++i)
      shared_ends += solved.ends[i].date_bits == solved.ends[i - 1].date_bits;
  }
  EXPECT_GT(compared, 10000u);
  EXPECT_GT(shared_ends, 100u); // same-date ends were exercised, so was their order
}

TEST(ComputeResources, ComputationsUpToTheCoresRunAtOneCoresSpeedBeyondTheyShare)
{
  kernel::Engine engine;
  resources::ComputeResources cpu(engine, {{1e9, 2}});
  EXPECT_EQ(cpu.share(0, 1), 1e9);
  EXPECT_EQ(cpu.share(0, 2), 1e9);
  EXPECT_DOUBLE_EQ(cpu.share(0, 3), 2e9 / 3);
  EXPECT_DOUBLE_EQ(cpu.share(0, 4), 0.5e9);
  // Three computations of 1 Gflop on two cores: each at 2/3 Gflop/s, all done at 1.5 s.
  std::vector<double> ends;
  for (int a = 0; a < 3; ++a)
    engine.spawn("a", [&] {
      auto computation = cpu.execute(0, 1e9);
      engine.wait(*computation);
      ends.push_back(engine.now());
    });
  engine.run();
  ASSERT_EQ(ends.size(), 3u);
  for (double end : ends)
    EXPECT_DOUBLE_EQ(end, 1.5);
}

} // namespace
