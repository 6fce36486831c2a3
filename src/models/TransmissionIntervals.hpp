// The traffic lists of the xSim network model (Engelmann et al., "xSim network modeling", Sec. 4.1 and 4.2): the
// intervals during which one access point (contention) or one network (capacity) is busy transmitting.
//
// A new transmission of duration d wanted from t1 is placed in the first free room from t1 on: where t1 falls inside
// a busy interval it moves to that interval's end; where the free room before the next busy interval is shorter than
// what is left of d, the transmission is fragmented, fills that room and goes on after the busy interval. Its last
// byte leaves at the end of the last fragment, tt2, and its first byte is recomputed as tt1 = tt2 - d, so that the
// rest of the model, unaware of fragments, sees the bandwidth relation tt2 - tt1 = d. The fragments are kept as busy
// intervals (adjacent ones merged). A transmission of no duration passes at the first free instant and keeps nothing.
//
// Intervals that end at or before a date every rank has passed can never meet a new transmission (which starts at
// the sender's clock or later): prune() drops them.
#pragma once

#include <cstddef>
#include <vector>

namespace mpisim::models {

struct Transmission {
  double first_byte; // tt1
  double last_byte;  // tt2
};

class TransmissionIntervals {
public:
  // Places a transmission of `duration` seconds wanted from `wanted_start`; returns its (tt1, tt2).
  Transmission insert(double wanted_start, double duration);
  // Drops the intervals ending at or before `passed`.
  void prune(double passed);
  size_t size() const { return busy_.size() - head_; }

  struct Interval {
    double start;
    double end;
  };
  // The busy intervals, in order (for tests).
  std::vector<Interval> intervals() const { return {busy_.begin() + static_cast<std::ptrdiff_t>(head_), busy_.end()}; }

private:
  std::vector<Interval> busy_; // sorted, disjoint; [head_, end) are live
  size_t head_ = 0;
};

} // namespace mpisim::models
