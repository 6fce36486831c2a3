// The options that configure a Simulation, declared once (common/OptionTable.hpp): both front ends take them, with
// these names, types, defaults and help texts (`mpisim replay` through the Python module, `mpisim run` natively).
#pragma once

#include "common/OptionTable.hpp"
#include "mpi/Simulation.hpp"

namespace mpisim::mpi {

// --platform, --model, --param, --model-params, --hostfile, --map, --coll-selector, --coll.
const options::OptionTable<SimulationOptions>& simulation_option_table();

} // namespace mpisim::mpi
