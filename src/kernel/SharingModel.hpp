// Activities that progress at a rate given by the max-min solver, updated lazily.
//
// How solver shares become event dates: an action holds `remaining` work, the `rate` it progresses at, and the date
// `remaining` was last brought up to date. After a solve, only the actions whose variable the solver recomputed are
// touched: remaining -= rate * (now - last_update), then rate = value * rate_factor, and the completion event moves
// to now + remaining / rate. Actions whose shares did not change keep their completion dates untouched, which is what
// makes a round cost proportional to the connected component an event touched, not to every running flow.
//
// Under the solver's lazy marking (SimGrid's order of changes), an action that completes leaves the solver only once
// every event of its round has fired, after the flows whose latency ended in that round joined it: SimGrid frees a
// finished action's variable after it has processed all its due events.
#pragma once

#include "kernel/Activity.hpp"
#include "kernel/Engine.hpp"
#include "solver/MaxMinSolver.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace mpisim::kernel {

class SharingModel;

class SharedAction : public Activity, private Event {
public:
  // rate_factor scales the solver's value into a progress rate (SMPI's bandwidth factor).
  SharedAction(double work, double rate_factor) : remaining_(work), rate_factor_(rate_factor) {}

  double remaining() const { return remaining_; }
  double rate() const { return rate_; }
  solver::VarId variable() const { return variable_; }

private:
  friend class SharingModel;
  void fire() override;

  SharingModel* model_ = nullptr;
  solver::VarId variable_ = 0;
  double remaining_;
  double rate_factor_;
  double rate_ = 0;
  SimTime last_update_ = 0;
};

class SharingModel : public Model {
public:
  // `source`: who ends its actions, for the order of same-date ends (EventSource).
  SharingModel(Engine& engine, EventSource source);

  solver::MaxMinSolver& solver() { return solver_; }
  Engine& engine() { return engine_; }

  // Starts driving an action whose variable was already created (and expanded) in solver().
  void start(std::shared_ptr<SharedAction> action, solver::VarId variable);

  // Something changed in the solver (penalty, bound, capacity): re-solve at the end of the round.
  void mark_dirty() { dirty_ = true; }

  void update(SimTime now) override;
  void events_fired(SimTime now) override;
  // With a usage watcher: the last re-sharing, so that the watcher hears of the final round's changes.
  void run_ended(SimTime now) override;

  size_t running() const { return running_; }

  // Resource use over time, for observers above (the network model reports link bandwidth). After each solve, `on`
  // is called for every constraint whose consumption or number of active users changed since its previous report
  // (first reports: changed from 0), at the date of the solve. Without a watcher the solver keeps no usage data.
  using UsageWatcher = std::function<void(solver::CnstId, double consumption, uint32_t active_users, SimTime now)>;
  void watch_usage(UsageWatcher on);

private:
  friend class SharedAction;
  void finish(SharedAction& action);
  void reschedule(SharedAction& action, SimTime now);

  Engine& engine_;
  EventSource source_;
  solver::MaxMinSolver solver_;
  std::vector<std::shared_ptr<SharedAction>> by_variable_;
  std::vector<solver::VarId> finished_variables_; // lazy marking: to remove once the round's events have fired
  size_t running_ = 0;
  bool dirty_ = false;
  struct Reported {
    double consumption = 0;
    uint32_t active_users = 0;
  };
  UsageWatcher usage_watcher_;
  std::vector<Reported> reported_; // by constraint: what the watcher was last told
  void report_usage(SimTime now);
};

} // namespace mpisim::kernel
