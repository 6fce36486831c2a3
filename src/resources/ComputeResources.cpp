#include "resources/ComputeResources.hpp"

#include "kernel/Pool.hpp"

#include <algorithm>
#include <string>

namespace mpisim::resources {

class ComputeResources::Computation : public kernel::Activity, private kernel::Event {
public:
  Computation(ComputeResources& owner, uint32_t host, uint32_t variable_id, double flops, kernel::SimTime now)
      : owner_(owner), host_(host), variable_id_(variable_id), flops_(flops), remaining_(flops), last_update_(now)
  {
    set_source(kernel::EventSource::Hosts);
  }
  std::string describe() const override
  {
    return "computation of " + std::to_string(flops_) + " flops on host #" + std::to_string(host_);
  }

  uint32_t host() const { return host_; }
  uint32_t variable_id() const { return variable_id_; }

  // SharingModel::reschedule's arithmetic, with the rate the solver would give.
  void reschedule(kernel::Engine& engine, kernel::SimTime now, double rate)
  {
    remaining_ -= rate_ * (now - last_update_);
    if (remaining_ < 0)
      remaining_ = 0;
    last_update_ = now;
    rate_ = rate;
    if (rate_ > 0)
      engine.schedule(*this, now + remaining_ / rate_);
    else
      engine.cancel(*this);
  }

  // Off its host: no rate, and no end in the queue (a killed rank's computation is stopped before its end).
  void stop(kernel::Engine& engine)
  {
    remaining_ = 0;
    rate_ = 0;
    engine.cancel(*this);
  }

private:
  void fire() override { owner_.finish(*this); }

  ComputeResources& owner_;
  uint32_t host_;
  uint32_t variable_id_;
  double flops_;
  double remaining_;
  double rate_ = 0;
  kernel::SimTime last_update_;
};

ComputeResources::ComputeResources(kernel::Engine& engine, const std::vector<CpuSpec>& hosts)
    : engine_(engine), hosts_(hosts), states_(hosts.size())
{
  engine.add_model(*this);
}

ComputeResources::~ComputeResources() = default;

std::shared_ptr<kernel::Activity> ComputeResources::execute(uint32_t host, double flops)
{
  auto computation = kernel::make_pooled<Computation>(*this, host, take_variable_id(), flops, engine_.now());
  states_[host].running.push_back(computation);
  mark_changed(host);
  return computation;
}

uint32_t ComputeResources::take_variable_id()
{
  if (free_variable_ids_.empty())
    return next_variable_id_++;
  const uint32_t id = free_variable_ids_.back();
  free_variable_ids_.pop_back();
  return id;
}

void ComputeResources::mark_changed(uint32_t host)
{
  if (not states_[host].changed) {
    states_[host].changed = true;
    changed_hosts_.push_back(host);
  }
}

double ComputeResources::share(uint32_t host, size_t running)
{
  const CpuSpec& cpu = hosts_[host];
  if (running <= static_cast<size_t>(cpu.cores))
    return cpu.speed;
  std::vector<double>& rates = states_[host].overloaded_rate;
  const size_t slot = running - static_cast<size_t>(cpu.cores) - 1;
  if (rates.size() <= slot)
    rates.resize(slot + 1, 0.0);
  if (rates[slot] == 0) {
    // The host's component alone: the solver's result depends on nothing else (its sums of unit weights are exact).
    solver::MaxMinSolver solver;
    const solver::CnstId cores = solver.add_constraint(cpu.speed * cpu.cores, solver::Sharing::Shared);
    solver::VarId first = 0;
    for (size_t i = 0; i < running; ++i) {
      const solver::VarId v = solver.add_variable(1.0, cpu.speed);
      solver.expand(cores, v, 1.0);
      if (i == 0)
        first = v;
    }
    solver.solve();
    rates[slot] = solver.value(first);
  }
  return rates[slot];
}

void ComputeResources::update(kernel::SimTime now)
{
  if (changed_hosts_.empty())
    return;
  to_reschedule_.clear();
  for (uint32_t host : changed_hosts_) {
    states_[host].changed = false;
    for (const auto& computation : states_[host].running)
      to_reschedule_.push_back(computation.get());
  }
  changed_hosts_.clear();
  std::sort(to_reschedule_.begin(), to_reschedule_.end(),
            [](const Computation* a, const Computation* b) { return a->variable_id() < b->variable_id(); });
  for (Computation* computation : to_reschedule_)
    computation->reschedule(engine_, now, share(computation->host(), states_[computation->host()].running.size()));
}

void ComputeResources::finish(Computation& computation)
{
  const std::shared_ptr<Computation> kept = remove(computation);
  computation.complete();
}

bool ComputeResources::abort(uint32_t host, const kernel::Activity& activity)
{
  const std::vector<std::shared_ptr<Computation>>& running = states_[host].running;
  const auto it = std::find_if(running.begin(), running.end(), [&](const auto& c) { return c.get() == &activity; });
  if (it == running.end())
    return false;
  const std::shared_ptr<Computation> kept = remove(**it);
  return true;
}

// Takes `computation` off its host and returns the host's reference to it: its variable id is freed as the solver
// frees a variable, and the host's other computations are re-shared at the next update.
std::shared_ptr<ComputeResources::Computation> ComputeResources::remove(Computation& computation)
{
  std::vector<std::shared_ptr<Computation>>& running = states_[computation.host()].running;
  auto it = std::find_if(running.begin(), running.end(), [&](const auto& c) { return c.get() == &computation; });
  std::shared_ptr<Computation> kept = std::move(*it);
  running.erase(it);
  free_variable_ids_.push_back(computation.variable_id());
  if (not running.empty()) // the solver re-shares the host's remaining computations
    mark_changed(computation.host());
  computation.stop(engine_);
  return kept;
}

} // namespace mpisim::resources
