// Host CPUs as SimGrid's Cas01 model shares them: a host of `cores` cores of `speed` flop/s is a max-min constraint
// of capacity speed x cores, each computation a flow of flops bounded by one core's speed, so that computations share
// a host fairly once they outnumber its cores.
//
// Without a solver in the common case: a host's computations are one component of the max-min system (no flow uses
// two hosts), whose share is a function of how many run there. Up to `cores` of them, each gets exactly its bound,
// one core's speed (the solver fixes bounds before a constraint within its tie window); beyond, the share the
// max-min solver gives that host's system (computed once per host and count, by the solver itself). Everything else
// is the sharing model's arithmetic (kernel/SharingModel.hpp), step for step, so dates are the same to the bit:
// after a round where a host gained or lost a computation, each computation running there brings its remaining
// work up to date (remaining -= rate x elapsed), takes the new rate and moves its end to now + remaining / rate; the
// round's moves take their sequence numbers in ascending order of the solver's variable id, which this class hands
// out as the solver would (the id freed last first, else a new one), since that order decides between ends at the
// same date.
#pragma once

#include "kernel/Engine.hpp"
#include "solver/MaxMinSolver.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace mpisim::resources {

struct CpuSpec {
  double speed; // flop/s per core
  int cores;
};

class ComputeResources : private kernel::Model {
public:
  ComputeResources(kernel::Engine& engine, const std::vector<CpuSpec>& hosts);
  ~ComputeResources() override;

  // Starts a computation of `flops` on `host`; the activity completes when it is done.
  std::shared_ptr<kernel::Activity> execute(uint32_t host, double flops);
  // Stops `activity` if it is a computation running on `host`, without completing it (its actor was killed): the
  // host's other computations are re-shared at once. Returns whether it was one.
  bool abort(uint32_t host, const kernel::Activity& activity);
  double speed(uint32_t host) const { return hosts_[host].speed; }

  // The progress rate of each of `running` computations on `host`, as the max-min solver shares the host.
  double share(uint32_t host, size_t running);

private:
  class Computation;
  friend class Computation;
  void update(kernel::SimTime now) override;
  void finish(Computation& computation);
  std::shared_ptr<Computation> remove(Computation& computation);
  void mark_changed(uint32_t host);
  uint32_t take_variable_id();

  struct HostState {
    std::vector<std::shared_ptr<Computation>> running;
    bool changed = false;                // since the last update: gained or lost a computation
    std::vector<double> overloaded_rate; // the share of cores + 1 + i computations, 0 until computed
  };

  kernel::Engine& engine_;
  std::vector<CpuSpec> hosts_;
  std::vector<HostState> states_;
  std::vector<uint32_t> changed_hosts_;
  std::vector<uint32_t> free_variable_ids_; // as MaxMinSolver's: the id freed last is handed out first
  uint32_t next_variable_id_ = 0;
  std::vector<Computation*> to_reschedule_; // update()'s scratch list
};

} // namespace mpisim::resources
