#include "study/CollectiveTiming.hpp"

#include "common/Errors.hpp"
#include "mpi/Rank.hpp"

#include <algorithm>

namespace mpisim::study {
namespace {

mpi::CollectiveCall make_call(const CollectiveTiming& timing, mpi::Collective op)
{
  using C = mpi::Collective;
  mpi::CollectiveCall call;
  call.op = op;
  call.root = timing.root;
  call.element_bytes = timing.element_bytes;
  call.bytes = timing.bytes;
  call.recv_bytes = timing.bytes;
  const std::vector<double> blocks(static_cast<size_t>(timing.ranks), timing.bytes);
  switch (op) {
  case C::Alltoallv:
  case C::Alltoallw: call.send_counts = call.recv_counts = blocks; break;
  case C::Gatherv:
  case C::Allgatherv:
  case C::ReduceScatter: call.recv_counts = blocks; break;
  case C::Scatterv: call.send_counts = blocks; break;
  default: break;
  }
  return call;
}

} // namespace

double time_collective(const CollectiveTiming& timing, std::shared_ptr<const platform::Platform> platform)
{
  const mpi::Collective op = mpi::collective_from_name(timing.operation);
  if (timing.ranks < 1)
    throw InputError("the number of ranks must be at least 1 (got " + std::to_string(timing.ranks) + ")");
  if (timing.bytes < 0 || timing.element_bytes <= 0)
    throw InputError("collective sizes must be positive");
  if (timing.root < 0 || timing.root >= timing.ranks)
    throw InputError("root " + std::to_string(timing.root) + " is not a rank of " + std::to_string(timing.ranks));
  if (not platform)
    platform = mpi::load_or_generate_platform(timing.simulation.platform);
  mpi::SimulationOptions options = timing.simulation;
  options.stacks = mpi::RankStacks::Arena; // the ranks run only a collective algorithm
  mpi::Simulation simulation(options, timing.ranks, std::move(platform));
  const mpi::CollectiveCall call = make_call(timing, op);
  double last = 0;
  simulation.world().launch([&](mpi::Rank& rank) {
    simulation.collectives().run(rank, rank.world().comm_world(), call);
    last = std::max(last, rank.world().engine().now());
  });
  simulation.engine().run();
  return last;
}

} // namespace mpisim::study
