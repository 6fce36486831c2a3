// The options of replay's checkpoints, declared once (common/OptionTable.hpp): `mpisim replay` and mpisim.replay take
// them; `mpisim options` and docs/run-options.md list them with the others. --restart and --restart-cost, which both
// front ends take, are the runner's table's (online/options/RunnerOptions.cpp).
#pragma once

#include "common/OptionTable.hpp"
#include "replay/Checkpoints.hpp"

namespace mpisim::replay {

// --checkpoint-interval, --checkpoint-cost.
const options::OptionTable<CheckpointOptions>& checkpoint_option_table();

} // namespace mpisim::replay
