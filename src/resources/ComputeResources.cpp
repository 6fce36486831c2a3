#include "resources/ComputeResources.hpp"

#include <string>

namespace mpisim::resources {

namespace {
class ComputeAction : public kernel::SharedAction {
public:
  ComputeAction(double flops, uint32_t host) : SharedAction(flops, 1.0), flops_(flops), host_(host) {}
  std::string describe() const override
  {
    return "computation of " + std::to_string(flops_) + " flops on host #" + std::to_string(host_);
  }

private:
  double flops_;
  uint32_t host_;
};
} // namespace

ComputeResources::ComputeResources(kernel::Engine& engine, const std::vector<CpuSpec>& hosts)
    : model_(engine, kernel::EventSource::Hosts), hosts_(hosts)
{
  constraints_.reserve(hosts.size());
  for (const CpuSpec& host : hosts)
    constraints_.push_back(model_.solver().add_constraint(host.speed * host.cores, solver::Sharing::Shared));
}

std::shared_ptr<kernel::Activity> ComputeResources::execute(uint32_t host, double flops)
{
  auto action = std::make_shared<ComputeAction>(flops, host);
  auto& solver = model_.solver();
  solver::VarId variable = solver.add_variable(1.0, hosts_[host].speed);
  solver.expand(constraints_[host], variable, 1.0);
  model_.start(action, variable);
  return action;
}

} // namespace mpisim::resources
