// The host clocks mpisim times computation with: the simulation thread's CPU time, read from the kernel at most once
// per short real-time period and extrapolated with the monotonic clock in between.
//
// Every rank runs on the one simulation thread, and the CPU time a rank computes between two MPI calls is that
// thread's CPU clock at the call's entry minus its value at the previous call's exit. Reading the thread's CPU clock
// (CLOCK_THREAD_CPUTIME_ID) is a system call, about 0.4 us here (the kernel has no vDSO path for it), while the
// monotonic clock is read in user space (vDSO, about 25 ns); NAS LU class A on 64 ranks makes 7.1 million MPI calls,
// each needing the CPU time twice. While the thread holds a CPU its CPU time advances exactly as real time does, so
// between two reads of the CPU clock less than `resync` of real time apart, the CPU time is the last read plus the
// real time since. When the thread lost the CPU meanwhile (another process ran, or the thread blocked), that real
// time is not CPU time: an absence longer than `resync` is never counted, since the first query after it finds the
// last read older than `resync` and reads the CPU clock; an absence shorter than `resync` within the period is
// counted as CPU time, so an estimate exceeds the true CPU time by at most `resync`. docs/online.md
// ("Computation") says what this means for the measured bursts.
#pragma once

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

  explicit ThreadCpuClock(double resync = kDefaultResync) : resync_(resync) {}

  // The calling thread's CPU time, in seconds: read, or extrapolated from the last read (at most `resync` old).
  // Called from the thread it measures only.
  double now()
  {
    const double wall = monotonic_time();
    if (wall - read_wall_ < resync_)
      return read_cpu_ + (wall - read_wall_);
    return read(wall);
  }
  // How many times the CPU clock was read (tests, benchmarks).
  unsigned long reads() const { return reads_; }

private:
  double read(double wall_before);

  double resync_;
  double read_wall_ = -1e300; // monotonic time of the last CPU clock read (none yet: the first query reads)
  double read_cpu_ = 0;       // the CPU time it gave
  unsigned long reads_ = 0;
};

} // namespace mpisim::online
