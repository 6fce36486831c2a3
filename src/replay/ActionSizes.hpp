// The last step of reading an action: element counts become bytes (count x size of the action's datatype) and a
// collective's fields become the complete call the MPI layer runs, so that the replayer needs nothing from the reader.
#pragma once

#include "replay/TraceAction.hpp"

namespace mpisim::replay {

// The MPI collective a collective action runs (is_collective(kind) must hold).
mpi::Collective collective_of(ActionKind kind);

// Given an action as its arguments were parsed (element counts in amount/amount2 and in the call's per-rank arrays,
// datatypes resolved, `details` allocated for a collective), turns its counts into bytes as TraceAction.hpp lays out
// and fills `details->call` of a collective. A receive's negative count (probe first) is kept as it is.
void size_action(TraceAction& action);

} // namespace mpisim::replay
