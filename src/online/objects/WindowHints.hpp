// The info hints of a window (MPI-3.1 section 11.2.1): those MPI defines, with the values in effect. A window starts
// with MPI's defaults, then takes the hints given at creation and by MPI_Win_set_info. None changes how mpisim
// simulates: they are assertions a program makes, which the simulator's algorithms need not exploit.
#pragma once

#include "online/objects/ProcessObjects.hpp"

namespace mpisim::online {

// The hints in effect on a new window of `flavor` (MPI_WIN_FLAVOR_*): MPI's defaults, alloc_shared_noncontig for a
// shared window only.
InfoObject default_window_hints(int flavor);

// Takes into `hints` each of `given`'s entries that is a hint `hints` holds, with a value MPI allows for it. Other
// keys and invalid values are ignored (MPI lets an implementation ignore any hint; MPICH ignores unknown keys too).
void apply_window_hints(InfoObject& hints, const InfoObject& given);

} // namespace mpisim::online
