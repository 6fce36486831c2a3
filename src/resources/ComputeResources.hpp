// Host CPUs as shared resources (SimGrid's Cas01 model): one constraint per host of capacity speed x cores; each
// computation is a flow of flops bounded by the speed of one core. Several ranks on one host share its cores fairly.
#pragma once

#include "kernel/SharingModel.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace mpisim::resources {

struct CpuSpec {
  double speed; // flop/s per core
  int cores;
};

class ComputeResources {
public:
  ComputeResources(kernel::Engine& engine, const std::vector<CpuSpec>& hosts);

  // Starts a computation of `flops` on `host`; the activity completes when it is done.
  std::shared_ptr<kernel::Activity> execute(uint32_t host, double flops);
  double speed(uint32_t host) const { return hosts_[host].speed; }

private:
  kernel::SharingModel model_;
  std::vector<CpuSpec> hosts_;
  std::vector<solver::CnstId> constraints_;
};

} // namespace mpisim::resources
