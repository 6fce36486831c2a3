// Writes any trace set (TraceFormat.hpp) as a SimGrid time-independent trace: DIR/index.txt naming one file per rank,
// DIR/rank<r>.txt, counts in bytes (a bare `init` first makes MPI_BYTE the default datatype), computation in flops.
// `mpisim convert`; `mpisim replay` and `smpirun -replay` read the result.
#pragma once

#include "replay/TraceFormat.hpp"

#include <string>

namespace mpisim::replay {

// Returns the number of actions written. Throws InputError when the input is bad or DIR cannot be written.
uint64_t convert_to_ti(const std::string& trace, const std::string& directory, const TraceFormatOptions& options);

} // namespace mpisim::replay
