#include "kernel/SharingModel.hpp"

namespace mpisim::kernel {

SharingModel::SharingModel(Engine& engine, EventSource source) : engine_(engine), source_(source)
{
  engine.add_model(*this);
}

void SharingModel::start(std::shared_ptr<SharedAction> action, solver::VarId variable)
{
  action->model_ = this;
  action->set_source(source_);
  action->variable_ = variable;
  action->last_update_ = engine_.now();
  if (by_variable_.size() <= variable)
    by_variable_.resize(variable + 1);
  by_variable_[variable] = std::move(action);
  ++running_;
  dirty_ = true;
}

void SharingModel::reschedule(SharedAction& action, SimTime now)
{
  action.remaining_ -= action.rate_ * (now - action.last_update_);
  if (action.remaining_ < 0)
    action.remaining_ = 0;
  action.last_update_ = now;
  action.rate_ = solver_.value(action.variable_) * action.rate_factor_;
  if (action.rate_ > 0)
    engine_.schedule(action, now + action.remaining_ / action.rate_);
  else
    engine_.cancel(action);
}

void SharingModel::update(SimTime now)
{
  if (not dirty_)
    return;
  dirty_ = false;
  solver_.solve();
  // Rescheduling takes a sequence number, which orders ends at the same exact date: under SimGrid's marking, in
  // SimGrid's order of changed actions.
  const bool as_simgrid = solver_.marking() == solver::Marking::SimGridLazy;
  for (solver::VarId variable : as_simgrid ? solver_.modified_in_simgrid_order() : solver_.modified())
    if (variable < by_variable_.size() && by_variable_[variable])
      reschedule(*by_variable_[variable], now);
  if (usage_watcher_)
    report_usage(now);
}

void SharingModel::events_fired(SimTime)
{
  for (solver::VarId variable : finished_variables_)
    solver_.remove_variable(variable);
  finished_variables_.clear();
}

void SharingModel::run_ended(SimTime now)
{
  if (usage_watcher_)
    update(now);
}

void SharingModel::watch_usage(UsageWatcher on)
{
  usage_watcher_ = std::move(on);
  solver_.track_constraints(static_cast<bool>(usage_watcher_));
}

void SharingModel::report_usage(SimTime now)
{
  for (solver::CnstId c : solver_.solved_constraints()) {
    if (reported_.size() <= c)
      reported_.resize(c + 1);
    const Reported current{solver_.consumption(c), solver_.active_users(c)};
    Reported& last = reported_[c];
    if (current.consumption == last.consumption && current.active_users == last.active_users)
      continue;
    last = current;
    usage_watcher_(c, current.consumption, current.active_users, now);
  }
}

void SharingModel::finish(SharedAction& action)
{
  std::shared_ptr<SharedAction> keep = std::move(by_variable_[action.variable_]);
  if (solver_.marking() == solver::Marking::SimGridLazy)
    finished_variables_.push_back(action.variable_);
  else
    solver_.remove_variable(action.variable_);
  --running_;
  dirty_ = true;
  action.remaining_ = 0;
  action.rate_ = 0;
  action.complete();
}

void SharedAction::fire()
{
  model_->finish(*this);
}

} // namespace mpisim::kernel
