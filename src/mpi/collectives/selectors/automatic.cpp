// Selector "automatic": times every algorithm of the operation for each distinct call and keeps the fastest (see
// CollectiveLibrary::set_trial; SimGrid's "automatic" selector, which runs them all inside the simulation one after
// the other, inspired it). This entry is what runs when no trial runner is available: the default selector's choice.
#include "mpi/collectives/Collectives.hpp"

namespace mpisim::mpi {
namespace {

std::string choose_without_trials(const CollectiveCall& call, const CommShape& shape)
{
  return SelectorRegistry::find("default").choose(call, shape);
}

const RegisterSelector kRegister({"automatic",
                                  "times every algorithm for each distinct call (alone, on the same hosts) and uses "
                                  "the fastest; the decisions are reported",
                                  choose_without_trials});

} // namespace
} // namespace mpisim::mpi
