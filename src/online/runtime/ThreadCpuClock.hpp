// The host clocks mpisim times computation with: the simulation thread's CPU time, read from the kernel at most once
// per short real-time period and extrapolated with a real-time clock in between.
//
// Every rank runs on the one simulation thread, and the CPU time a rank computes between two MPI calls is that
// thread's CPU clock at the call's entry minus its value at the previous call's exit. Reading the thread's CPU clock
// (CLOCK_THREAD_CPUTIME_ID) is a system call, about 0.4 us here (the kernel has no vDSO path for it); NAS LU class A on
// 64 ranks makes 7.1 million MPI calls, each needing the CPU time twice. While the thread holds a CPU its CPU time
// advances exactly as real time does, so between two reads of the CPU clock less than `resync` of real time apart,
// the CPU time is the last read plus the real time since. When the thread lost the CPU meanwhile (another process
// ran, or the thread blocked), that real time is not CPU time: an absence longer than `resync` is never counted,
// since the first query after it finds the last read older than `resync` and reads the CPU clock; an absence shorter
// than `resync` within the period is counted as CPU time, so an estimate exceeds the true CPU time by at most
// `resync`. docs/online.md ("Computation") says what this means for the measured bursts.
//
// Real time between reads comes from the time-stamp counter (one instruction, no call) where the kernel keeps its
// own time with it (its clock source is "tsc": a constant rate, synchronized across cores), converted at a rate
// measured against the monotonic clock over the run's first reads; elsewhere, and until that rate is known, from the
// monotonic clock (vDSO: no system call, but a call and more work, about 25 ns).
#pragma once

#include <cstdint>

namespace mpisim::online {

// Both read the real clocks (RealLibc.hpp), whatever the program sees.
// Host CPU time of the calling thread, in seconds (a system call).
double thread_cpu_time();
// Host monotonic time, in seconds (no system call: vDSO).
double monotonic_time();

class ThreadCpuClock {
public:
  // 100 us: one CPU clock read per 100 us of real time at most (under 0.4 % of the thread's time), while a loaded
  // machine's absences shorter than that are a small part of its absences (most last a scheduler slice, milliseconds;
  // bench/README.md, "Session 13: online LU").
  static constexpr double kDefaultResync = 100e-6;
  // Whether this machine's time-stamp counter can tell real time (x86-64, the kernel's clock source is "tsc").
  static bool counter_usable();

  explicit ThreadCpuClock(double resync = kDefaultResync, bool use_counter = counter_usable())
      : resync_(resync), use_counter_(use_counter)
  {
  }

  // The calling thread's CPU time, in seconds: read, or extrapolated from the last read (at most `resync` old).
  // Called from the thread it measures only.
  double now()
  {
    if (seconds_per_tick_ > 0) {
      const uint64_t since = counter() - read_ticks_; // a huge value if the counter went back: read again
      if (since < resync_ticks_)
        return read_cpu_ + static_cast<double>(since) * seconds_per_tick_;
    } else {
      const double since = monotonic_time() - read_wall_;
      if (since < resync_)
        return read_cpu_ + since;
    }
    return read();
  }
  // How many times the CPU clock was read (tests, benchmarks); whether real time now comes from the counter.
  unsigned long reads() const { return reads_; }
  bool counting() const { return seconds_per_tick_ > 0; }

private:
  static uint64_t counter()
  {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return 0; // never used: counter_usable() is false
#endif
  }
  double read();
  void calibrate(uint64_t ticks, double wall);
  void stop_counting(); // real time from the monotonic clock from now on

  double resync_;
  bool use_counter_;
  double read_wall_ = -1e300; // monotonic time of the last CPU clock read (none yet: the first query reads)
  uint64_t read_ticks_ = 0;   // the counter then
  double read_cpu_ = 0;       // the CPU time it gave
  unsigned long reads_ = 0;
  // The counter's rate, measured from the first read on; 0 until known (or never, without a usable counter).
  uint64_t first_ticks_ = 0;
  double first_wall_ = -1;
  double seconds_per_tick_ = 0;
  uint64_t resync_ticks_ = 0;
};

} // namespace mpisim::online
