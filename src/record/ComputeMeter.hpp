// Measures the computation a rank does between two MPI calls: the calling thread's CPU time (not wall-clock time,
// so that time the rank spends descheduled on an oversubscribed node is not counted), or its retired instructions
// from a hardware counter (perf_event_open), when asked and when the machine allows it.
#pragma once

#include "record/Config.hpp"

#include <cstdint>
#include <string>

namespace mpisim::record {

class ComputeMeter {
public:
  ComputeMeter() = default;
  ComputeMeter(const ComputeMeter&) = delete;
  ComputeMeter& operator=(const ComputeMeter&) = delete;
  ~ComputeMeter();

  // Opens the wanted counter for the calling thread. When instructions are wanted but cannot be counted, falls back
  // to CPU time and returns why (empty when the wanted counter works).
  std::string open(Counter wanted, double speed);

  Counter counter() const { return counter_; }
  // Current reading: nanoseconds of thread CPU time, or instructions.
  uint64_t read() const;
  // Work between two readings: their difference minus the meter's own cost (part of each reading falls inside the
  // interval; measured when the meter opens as the smallest difference between back-to-back readings: about 0.7 us
  // of thread CPU time per pair on a virtual machine, where the clock is a system call).
  uint64_t work(uint64_t from, uint64_t to) const { return to > from + bias_ ? to - from - bias_ : 0; }
  uint64_t bias() const { return bias_; }
  // An amount of work, as flops (CPU seconds x speed, or instructions), and as reference seconds (to compare
  // with the minimum burst length: instructions / speed).
  double flops(uint64_t delta) const;
  double seconds(uint64_t delta) const;

private:
  Counter counter_ = Counter::CpuTime;
  double speed_ = 1e9;
  int perf_fd_ = -1;
  uint64_t bias_ = 0;

  std::string open_counter(Counter wanted, double speed);
  void calibrate();
};

} // namespace mpisim::record
