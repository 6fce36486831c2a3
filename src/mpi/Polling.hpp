// What polling calls (MPI_Test and its array forms, MPI_Iprobe, MPI_Improbe) cost, under one of two rules
// (docs/specifications/polling.md): SimGrid 3.32's growing delays with process-wide counters, or a fixed realistic
// cost with fast-forward of ranks that keep polling with nothing changed.
#pragma once

#include "kernel/Activity.hpp"
#include "mpi/Communicator.hpp"

#include <cstdint>
#include <vector>

namespace mpisim::mpi {

enum class PollingRule : uint8_t { Realistic, Smpi };

struct PollingSettings {
  PollingRule rule = PollingRule::Smpi; // replay follows SimGrid; online runs choose with --polling
  double poll_cost = 1e-7;              // realistic: one polling call (Open MPI 4.1.4, bench/polling/)
  double test_delay = 1e-4;             // smpi/test
  double iprobe_delay = 1e-4;           // smpi/iprobe
  bool grow_injected_times = true;      // smpi/grow-injected-times
};

// SimGrid's multipliers: one each for a request's test, MPI_Testany and MPI_Iprobe, shared by every rank.
struct SmpiPollCounters {
  int test = 1;
  int testany = 1;
  int iprobe = 1;
};

// What a probe looks for.
struct ProbeFilter {
  const Communicator* comm;
  int source;
  int tag;
  bool operator==(const ProbeFilter& other) const
  {
    return comm->context() == other.comm->context() && source == other.source && tag == other.tag;
  }
};

// Completed by the engine's stall handler to let a fast-forwarded poll return (a loop of polls with a bound, whose
// rank would do what the awaited event needs once it leaves the loop).
class PollRelease : public kernel::Activity {
public:
  std::string describe() const override { return "polling (fast-forwarded; nothing it polls can change)"; }
};

// A rank's unsuccessful polls since its last other operation (the realistic rule): what they looked at.
class PollStreak {
public:
  // Every pending request and the filter (if any) of this poll were looked at by an earlier poll of the streak.
  bool covers(const std::vector<kernel::ActivityPtr>& pending, const ProbeFilter* filter) const;
  void add(const std::vector<kernel::ActivityPtr>& pending, const ProbeFilter* filter);
  // Every MPI call but a poll ends the streak (each isend, irecv and wait of a replay): inline, and nothing to do when
  // no poll came since the last call.
  void clear()
  {
    if (not empty())
      clear_all();
  }
  bool empty() const { return requests_.empty() && filters_.empty() && not released_; }

  const std::vector<kernel::ActivityPtr>& requests() const { return requests_; }
  const std::vector<ProbeFilter>& filters() const { return filters_; }

  // After a release, the rank polls on without fast-forward for this many more unsuccessful polls (a loop with a
  // bound gets to leave; an endless one is fast-forwarded again, and found deadlocked at the next stall).
  static constexpr int kPollsAfterRelease = 1000;
  void released() { released_ = kPollsAfterRelease; }
  bool may_fast_forward() const { return released_ == 0; }
  void count_unsuccessful() { released_ -= released_ > 0; }

private:
  void clear_all();
  std::vector<kernel::ActivityPtr> requests_;
  std::vector<ProbeFilter> filters_;
  int released_ = 0;
};

} // namespace mpisim::mpi
