// How the ranks that can run at one simulated date take turns (docs/specifications/same-date-order.md, "Rounds").
#pragma once

#include <cstdint>

namespace mpisim::mpi {

//   RunToBlock - each runs until it blocks (the default: a fiber switch per blocking call only);
//   SmpiRounds - as SimGrid 3.32: each MPI operation that is a kernel call (simcall) there gives way to the other
//                ranks ready at that date, so ranks resuming at one date interleave call by call.
enum class Scheduling : uint8_t { RunToBlock, SmpiRounds };

} // namespace mpisim::mpi
