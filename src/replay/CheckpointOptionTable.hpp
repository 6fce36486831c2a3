// The options of replay's checkpoint/restart, declared once (common/OptionTable.hpp): `mpisim replay` and
// mpisim.replay take them; `mpisim options` and docs/run-options.md list them with the others. `mpisim run` has its
// own --restart and --restart-cost (online/options/RunnerOptions.cpp): a program restarts from its own files.
#pragma once

#include "common/OptionTable.hpp"
#include "replay/Checkpoints.hpp"

namespace mpisim::replay {

// --checkpoint-interval, --checkpoint-cost, --restart, --restart-cost.
const options::OptionTable<CheckpointOptions>& checkpoint_option_table();

} // namespace mpisim::replay
