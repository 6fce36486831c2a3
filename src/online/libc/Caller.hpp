// Who calls a C library function mpisim defines (this folder): a rank, whose state and simulated time it gets, or
// code outside any rank (mpisim itself, static constructors, another thread), which gets the C library's behaviour.
#pragma once

#include "online/runtime/LibcStates.hpp"
#include "online/runtime/Runtime.hpp"

namespace mpisim::online {

// The calling rank's state, or the process's outside ranks.
inline RankLibc& caller_libc()
{
  const int rank = Runtime::libc_rank();
  return rank < 0 ? LibcStates::of_process() : Runtime::get().libc().of_rank(rank);
}

// Whether the caller is a rank whose clocks and sleeps are simulated (not under --real-clocks).
inline bool caller_time_is_simulated()
{
  return Runtime::libc_rank() >= 0 && not Runtime::get().options().real_clocks;
}

// Rank r's process id (getpid) is kFirstRankPid + r: deterministic, and above Linux's largest process id
// (PID_MAX_LIMIT, 2^22), so that it never names a real process.
constexpr int kFirstRankPid = 1 << 22;

} // namespace mpisim::online
