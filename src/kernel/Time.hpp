// Simulated time: double seconds, decided once for the whole simulator.
//
// Events whose dates differ by less than kTimePrecision (absolute, as SimGrid's surf/precision = 1e-9 under smpirun)
// are processed in the same scheduling round, at the date of the earliest one. Within a round, events fire in
// (date, priority, insertion sequence) order, so runs are reproducible bit for bit.
#pragma once

#include <cmath>
#include <limits>

namespace mpisim::kernel {

using SimTime = double;

inline constexpr SimTime kTimePrecision = 1e-9;
inline constexpr SimTime kNever = std::numeric_limits<double>::infinity();

inline bool same_date(SimTime a, SimTime b)
{
  return std::fabs(a - b) < kTimePrecision;
}

} // namespace mpisim::kernel
