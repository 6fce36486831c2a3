// The weighted max-min solver: bookkeeping of variables and constraints, then progressive filling of each
// touched component. The semantics, tie rule and costs are documented in MaxMinSolver.hpp.
#include "solver/MaxMinSolver.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace mpisim::solver {
namespace {

[[noreturn]] void misuse(const char* caller, const std::string& what)
{
  throw std::invalid_argument(std::string("MaxMinSolver::") + caller + ": " + what);
}

std::string number(double value)
{
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// Rejects NaN as well, since every comparison with NaN is false.
void require(bool ok, const char* caller, const char* name, double value, const char* expected)
{
  if (!ok)
    misuse(caller, std::string(name) + " = " + number(value) + ", expected " + expected);
}

void require_non_negative(const char* caller, const char* name, double value)
{
  require(std::isfinite(value) && value >= 0, caller, name, value, "a finite value >= 0");
}

} // namespace

// ---- Access checks -------------------------------------------------------------------------------------------

void MaxMinSolver::report_no_live_variable(VarId v, const char* caller)
{
  misuse(caller, "no live variable " + std::to_string(v));
}

void MaxMinSolver::report_no_constraint(CnstId c, const char* caller)
{
  misuse(caller, "no constraint " + std::to_string(c));
}

// ---- Building the system -------------------------------------------------------------------------------------

void MaxMinSolver::set_marking(Marking marking)
{
  if (!dirty_variables_.empty() || !dirty_constraints_.empty())
    misuse("set_marking", "changes are pending: choose the marking before building the system");
  marking_ = marking;
}

CnstId MaxMinSolver::add_constraint(double capacity, Sharing sharing)
{
  require_non_negative("add_constraint", "capacity", capacity);
  auto id = static_cast<CnstId>(constraints_.size());
  Constraint& cnst = constraints_.emplace_back();
  cnst.capacity = capacity;
  cnst.sharing = sharing;
  constraint_dirty_.push_back(0);
  saturation_heap_.reserve_ids(constraints_.size());
  return id;
}

void MaxMinSolver::set_capacity(CnstId c, double capacity)
{
  require_non_negative("set_capacity", "capacity", capacity);
  require_constraint(c, "set_capacity");
  Constraint& cnst = constraints_[c];
  if (cnst.capacity == capacity)
    return;
  cnst.capacity = capacity;
  if (lazy())
    mark_lazily(c);
  else
    mark_dirty_constraint(c);
}

double MaxMinSolver::capacity(CnstId c) const
{
  require_constraint(c, "capacity");
  return constraints_[c].capacity;
}

VarId MaxMinSolver::add_variable(double penalty, double bound)
{
  require_non_negative("add_variable", "penalty", penalty);
  require(std::isfinite(bound), "add_variable", "bound", bound, "a finite value (< 0 for none)");
  VarId id;
  if (!free_variable_ids_.empty()) {
    id = free_variable_ids_.back();
    free_variable_ids_.pop_back();
  } else {
    id = static_cast<VarId>(variables_.size());
    variables_.emplace_back();
    modified_bits_.resize((variables_.size() + 63) / 64);
    walk_progress_.push_back(0);
  }
  Variable& var = variables_[id];
  var.penalty = penalty;
  var.bound = bound;
  var.value = 0;
  var.uses.clear(); // a reused id keeps the capacity of its predecessor's vector
  var.alive = true;
  ++live_variable_count_;
  mark_dirty(id);
  return id;
}

void MaxMinSolver::set_penalty(VarId v, double penalty)
{
  require_non_negative("set_penalty", "penalty", penalty);
  require_live_variable(v, "set_penalty");
  Variable& var = variables_[v];
  if (var.penalty == penalty)
    return;
  bool was_enabled = var.enabled();
  // SimGrid marks from an enabled variable before changing or disabling it, from a disabled one once enabled.
  if (lazy() && was_enabled)
    mark_from_first_constraint(v);
  var.penalty = penalty;
  // Constraints list enabled variables only, so that disabled flows cost nothing while solving.
  if (was_enabled && !var.enabled()) {
    detach_from_constraints(v);
  } else if (!was_enabled && var.enabled()) {
    attach_to_constraints(v);
    if (lazy())
      mark_from_first_constraint(v);
  }
  mark_dirty(v);
}

void MaxMinSolver::set_bound(VarId v, double bound)
{
  require(std::isfinite(bound), "set_bound", "bound", bound, "a finite value (< 0 for none)");
  require_live_variable(v, "set_bound");
  Variable& var = variables_[v];
  if (var.bound == bound)
    return;
  var.bound = bound;
  if (lazy())
    for (const Use& use : var.uses)
      mark_lazily(use.constraint);
  mark_dirty(v);
}

void MaxMinSolver::expand(CnstId c, VarId v, double coefficient)
{
  require_non_negative("expand", "coefficient", coefficient);
  require_constraint(c, "expand");
  require_live_variable(v, "expand");
  Variable& var = variables_[v];
  auto same_constraint = [c](const Use& use) { return use.constraint == c; };
  auto existing = std::find_if(var.uses.begin(), var.uses.end(), same_constraint);
  if (existing != var.uses.end()) {
    // As SimGrid's LMM: a second use of a fatpipe counts once, at the larger coefficient (a flow and its own reverse
    // traffic on one fatpipe link do not add up); on a shared constraint the uses add.
    if (constraints_[c].sharing == Sharing::Fatpipe)
      existing->coefficient = std::max(existing->coefficient, coefficient);
    else
      existing->coefficient += coefficient;
    if (var.enabled())
      constraints_[c].users[existing->index_in_users].coefficient = existing->coefficient;
  } else {
    var.uses.push_back({c, 0, coefficient});
    if (var.enabled()) {
      join_users(c, v, static_cast<uint32_t>(var.uses.size() - 1), coefficient);
    }
  }
  if (lazy() && (coefficient > 0 || var.enabled()))
    mark_lazily(c);
  mark_dirty(v); // the component search from v reaches c
}

void MaxMinSolver::remove_variable(VarId v)
{
  require_live_variable(v, "remove_variable");
  Variable& var = variables_[v];
  if (var.enabled()) {
    if (lazy())
      mark_from_first_constraint(v);
    detach_from_constraints(v); // marks its constraints, whose remaining users must be re-solved
  }
  var.uses.clear();
  var.alive = false;
  var.value = 0;
  free_variable_ids_.push_back(v);
  --live_variable_count_;
}

double MaxMinSolver::consumption(CnstId c) const
{
  require_constraint(c, "consumption");
  const Constraint& cnst = constraints_[c];
  double total = 0;
  for (const User& user : cnst.users) {
    const double used = user.coefficient * variables_[user.variable].value;
    total = cnst.sharing == Sharing::Shared ? total + used : std::max(total, used);
  }
  return total;
}

uint32_t MaxMinSolver::active_users(CnstId c) const
{
  require_constraint(c, "active_users");
  uint32_t count = 0;
  for (const User& user : constraints_[c].users)
    count += user.coefficient > 0 && variables_[user.variable].value > 0;
  return count;
}

void MaxMinSolver::mark_dirty(VarId v)
{
  Variable& var = variables_[v];
  if (!var.dirty) {
    var.dirty = true;
    dirty_variables_.push_back(v);
  }
}

void MaxMinSolver::mark_dirty_constraint(CnstId c)
{
  if (!constraint_dirty_[c]) {
    constraint_dirty_[c] = 1;
    dirty_constraints_.push_back(c);
  }
}

// SimGrid's walk, depth first, as its LMM recurses: a constraint is marked once; going through a newly marked
// constraint's enabled users, most recently enabled first, each user not visited since the last solve has its
// unmarked constraints marked and walked in turn (expansion order), the walk coming back to the user's next
// constraint unless the user was visited meanwhile; then the user counts as visited. Constraints marked earlier are
// not walked again, even if a variable was enabled in them since. The order of marking is SimGrid's, which orders
// the changed actions (modified_in_simgrid_order()).
void MaxMinSolver::mark_lazily(CnstId c)
{
  if (constraint_dirty_[c])
    return;
  auto mark_and_enter = [this](CnstId m) {
    constraint_dirty_[m] = 1;
    dirty_constraints_.push_back(m);
    walk_stack_.push_back({m, constraints_[m].by_age.size()});
  };
  ++walks_since_solve_;
  mark_and_enter(c);
  while (!walk_stack_.empty()) {
    WalkFrame& frame = walk_stack_.back();
    // Newest first: from the end of the users' list by age, past the holes and the users visited already (most of
    // them, once the walk has spread) in a tight loop. Nothing joins or leaves during the walk.
    const AgeEntry* by_age = constraints_[frame.constraint].by_age.data();
    size_t unwalked = frame.unwalked;
    while (unwalked > 0 &&
           (by_age[unwalked - 1].variable == kNoVariable || walk_progress_[by_age[unwalked - 1].variable] == kVisited))
      --unwalked;
    frame.unwalked = unwalked;
    if (unwalked == 0) {
      walk_stack_.pop_back();
      continue;
    }
    const VarId v = by_age[unwalked - 1].variable;
    const std::vector<Use>& uses = variables_[v].uses;
    uint32_t use = walk_progress_[v];
    while (use < uses.size() && constraint_dirty_[uses[use].constraint]) // the frame's own is marked
      ++use;
    if (use < uses.size()) {
      walk_progress_[v] = use + 1;
      mark_and_enter(uses[use].constraint); // invalidates `frame`
      continue;
    }
    walk_progress_[v] = kVisited;
    visited_variables_.push_back(v);
    --frame.unwalked;
  }
}

void MaxMinSolver::join_users(CnstId c, VarId v, uint32_t index_in_uses, double coefficient)
{
  Constraint& cnst = constraints_[c];
  const auto index_in_users = static_cast<uint32_t>(cnst.users.size());
  variables_[v].uses[index_in_uses].index_in_users = index_in_users;
  cnst.users.push_back({v, index_in_uses, coefficient, static_cast<uint32_t>(cnst.by_age.size())});
  cnst.by_age.push_back({v, index_in_users});
}

// Amortized O(kAgeHolesPerUser) per leaving user: runs once the holes pass users / kAgeHolesPerUser, in O(entries).
// No slack for short lists: online LU's links have a few users each, and with 4 holes allowed on top, 62 % of the
// entries the marking walks skipped were holes (208 of 335 million in a run); squeezing a list of a few entries at
// each departure costs less than walking its holes at every marking that reaches it.
void MaxMinSolver::squeeze_age_holes(Constraint& cnst)
{
  uint32_t kept = 0;
  for (const AgeEntry& entry : cnst.by_age) {
    if (entry.variable == kNoVariable)
      continue;
    cnst.users[entry.index_in_users].index_in_age = kept;
    cnst.by_age[kept++] = entry;
  }
  cnst.by_age.resize(kept);
  cnst.age_holes = 0;
}

// modified_ is sorted and modified_bits_ clear: the bits serve as "not listed yet".
void MaxMinSolver::order_modified_as_simgrid()
{
  simgrid_order_.clear();
  if (modified_.size() <= 1) { // any order of one: spares the walk over the marked constraints' records
    simgrid_order_.assign(modified_.begin(), modified_.end());
    return;
  }
  for (VarId v : modified_)
    modified_bits_[v / 64] |= uint64_t{1} << (v % 64);
  auto take = [this](VarId v) {
    uint64_t& word = modified_bits_[v / 64];
    const uint64_t bit = uint64_t{1} << (v % 64);
    if (word & bit) {
      word &= ~bit;
      simgrid_order_.push_back(v);
    }
  };
  auto still_to_take = [this](VarId v) { return (modified_bits_[v / 64] >> (v % 64)) & 1; };
  // The bit first: most entries are variables already taken from an earlier constraint of their route, and the
  // compact bit array spares a load from the variable's scattered record for them. Once every variable is listed,
  // the constraints marked last have nothing to add.
  for (CnstId c : marked_order_) {
    if (simgrid_order_.size() == modified_.size())
      break;
    const Constraint& cnst = constraints_[c];
    for (auto entry = cnst.by_age.rbegin(); entry != cnst.by_age.rend(); ++entry)
      if (entry->variable != kNoVariable && still_to_take(entry->variable) &&
          cnst.users[entry->index_in_users].coefficient > 0)
        take(entry->variable);
  }
  if (simgrid_order_.size() != modified_.size())
    for (VarId v : modified_)
      take(v);
}

// The first constraint is the first expanded: for a flow, the first link of its route.
void MaxMinSolver::mark_from_first_constraint(VarId v)
{
  const Variable& var = variables_[v];
  if (!var.uses.empty())
    mark_lazily(var.uses.front().constraint);
}

void MaxMinSolver::attach_to_constraints(VarId v)
{
  Variable& var = variables_[v];
  for (uint32_t index = 0; index < var.uses.size(); ++index) {
    const Use& use = var.uses[index];
    join_users(use.constraint, v, index, use.coefficient);
  }
}

// Swap-with-last removal keeps user lists contiguous; the moved user's back-reference is patched.
void MaxMinSolver::detach_from_constraints(VarId v)
{
  users_left_after_walk_ |= walks_since_solve_ > 0 && !variables_[v].uses.empty();
  for (const Use& use : variables_[v].uses) {
    Constraint& cnst = constraints_[use.constraint];
    cnst.by_age[cnst.users[use.index_in_users].index_in_age].variable = kNoVariable;
    User last = cnst.users.back();
    if (use.index_in_users != cnst.users.size() - 1) {
      cnst.users[use.index_in_users] = last;
      variables_[last.variable].uses[last.index_in_uses].index_in_users = use.index_in_users;
      cnst.by_age[last.index_in_age].index_in_users = use.index_in_users;
    }
    cnst.users.pop_back();
    if (++cnst.age_holes > cnst.users.size() / kAgeHolesPerUser)
      squeeze_age_holes(cnst);
    if (!lazy()) // lazy marking marked from the variable before
      mark_dirty_constraint(use.constraint);
  }
}

// ---- Solving -------------------------------------------------------------------------------------------------
//
// The helpers declared `inline` below run once per variable, constraint or (variable, constraint) pair of a solve:
// the hint lets the compiler fold them into their callers, which matters as much as their bodies.

void MaxMinSolver::solve()
{
  modified_.clear();
  solved_constraints_.clear();
  // Anything marked from now on belongs to a component solved by this call.
  const uint64_t first_mark_of_this_solve = last_component_mark_ + 1;
  if (lazy()) {
    marked_order_.assign(dirty_constraints_.begin(), dirty_constraints_.end());
    solve_marked(first_mark_of_this_solve);
    sort_modified();
    order_modified_as_simgrid();
    return;
  }

  for (VarId v : dirty_variables_) {
    Variable& var = variables_[v];
    var.dirty = false;
    if (var.alive && var.component_mark < first_mark_of_this_solve)
      solve_component_of(v);
  }
  for (CnstId c : dirty_constraints_) {
    constraint_dirty_[c] = 0;
    if (constraints_[c].component_mark < first_mark_of_this_solve)
      solve_component_of_constraint(c);
  }
  dirty_variables_.clear();
  dirty_constraints_.clear();
  sort_modified();
}

// Lazy marking: the marked constraints with their enabled users, then the changed variables that no constraint
// reaches and that SimGrid leaves out of sharing (disabled, or without constraint: value 0, or their bound).
void MaxMinSolver::solve_marked(uint64_t first_mark_of_this_solve)
{
  if (!walk_is_the_component() || !solve_walked_component()) {
    const uint64_t first_search_mark = last_component_mark_ + 1; // past a walked component given up
    for (CnstId c : dirty_constraints_)
      if (constraints_[c].component_mark < first_search_mark)
        solve_component_of_constraint(c);
  }
  for (VarId v : dirty_variables_) {
    Variable& var = variables_[v];
    var.dirty = false;
    if (var.alive && var.component_mark < first_mark_of_this_solve && (!var.enabled() || var.uses.empty()))
      solve_component_of(v);
  }
  // A variable recomputed against its marked constraints also changes what its unmarked ones carry.
  if (track_constraints_)
    for (VarId v : modified_)
      for (const Use& use : variables_[v].uses)
        if (Constraint& cnst = constraints_[use.constraint]; cnst.component_mark < first_mark_of_this_solve) {
          cnst.component_mark = last_component_mark_;
          solved_constraints_.push_back(use.constraint);
        }
  for (CnstId c : dirty_constraints_)
    constraint_dirty_[c] = 0;
  for (VarId v : visited_variables_)
    walk_progress_[v] = 0;
  dirty_variables_.clear();
  dirty_constraints_.clear();
  visited_variables_.clear();
  walks_since_solve_ = 0;
  users_left_after_walk_ = false;
}

// The first walk after a solve starts with nothing marked or visited, so it marks every constraint connected to its
// start through enabled variables and visits every enabled user of them: a whole component, closed (each visited
// variable's constraints are marked). If no other walk marked more (a second walk marks another component, solved
// apart: ties are decided within a component) and no user left a constraint since (a removal walks before it
// detaches, and may split the component), collect_component() from the first marked constraint would find exactly
// these constraints and variables, plus the users that joined a marked constraint since, which the pass over the
// constraints' users enters in both cases. Their order differs, which changes nothing: the
// filling orders constraints by (level, id) and bounds by (level, id), and modified_ is sorted. The constraints
// tracked for observers are listed in the search's order, so tracking keeps the search. (The (level, id) order is
// total only without NaN levels, which a constraint whose weights all underflow to 0 would have: see below.)
bool MaxMinSolver::walk_is_the_component() const
{
  return walks_since_solve_ == 1 && !users_left_after_walk_ && !track_constraints_;
}

// Spares collect_component()'s pass over each variable's constraints (a load of its list of uses, which online the
// program's computation has evicted since the walk's). Returns false, having solved nothing, when a constraint with
// free users has no positive usage (its weights underflow): the search's order then decides, so it is left to it.
bool MaxMinSolver::solve_walked_component()
{
  start_component();
  for (CnstId c : dirty_constraints_)
    enter_component_constraint(c);
  for (VarId v : visited_variables_)
    enter_component(v);
  if (component_variables_.empty()) // a constraint without enabled users: nothing to compute
    return true;
  bool ordered = true;
  for (CnstId c : component_constraints_) {
    Constraint& cnst = constraints_[c];
    collect_constraint_users(cnst);
    ordered &= cnst.free_users == 0 || cnst.usage > 0;
  }
  if (!ordered)
    return false;
  ++walked_component_reuses_;
  solve_component();
  return true;
}

// The trivial components, a disabled variable (it links nothing and gets 0) and a constraint without enabled users
// (no value to compute, only its consumption, now 0, to report), skip the filling: many rounds of a replay create
// disabled flows or leave a link idle.
void MaxMinSolver::solve_component_of(VarId v)
{
  start_component();
  enter_component(v);
  if (!variables_[v].enabled()) {
    modified_.push_back(v);
    return;
  }
  collect_component();
  solve_component();
}

void MaxMinSolver::solve_component_of_constraint(CnstId c)
{
  start_component();
  enter_component_constraint(c);
  if (constraints_[c].users.empty()) {
    if (track_constraints_)
      solved_constraints_.push_back(c);
    return;
  }
  collect_component();
  solve_component();
}

void MaxMinSolver::start_component()
{
  ++last_component_mark_;
  component_variables_.clear();
  component_constraints_.clear();
}

// A variable's solve scratch is reset as it enters.
inline void MaxMinSolver::enter_component(VarId v)
{
  Variable& var = variables_[v];
  var.component_mark = last_component_mark_;
  var.value = 0;
  var.fixed = false;
  var.constrained = false;
  component_variables_.push_back(v);
}

inline void MaxMinSolver::enter_component_constraint(CnstId c)
{
  constraints_[c].component_mark = last_component_mark_;
  component_constraints_.push_back(c);
}

// Breadth-first search using the component lists themselves as queues. A disabled variable links nothing.
// The walk over a constraint's users also sums its usage, sparing the solve a second pass over every pair.
void MaxMinSolver::collect_component()
{
  size_t next_variable = 0;
  size_t next_constraint = 0;
  while (next_variable < component_variables_.size() || next_constraint < component_constraints_.size()) {
    for (; next_variable < component_variables_.size(); ++next_variable) {
      const Variable& var = variables_[component_variables_[next_variable]];
      if (!var.enabled())
        continue;
      for (const Use& use : var.uses) {
        const Constraint& cnst = constraints_[use.constraint];
        // Lazy marking recomputes a variable against the marked constraints only.
        if (cnst.component_mark != last_component_mark_ && (!lazy() || constraint_dirty_[use.constraint]))
          enter_component_constraint(use.constraint);
      }
    }
    for (; next_constraint < component_constraints_.size(); ++next_constraint)
      collect_constraint_users(constraints_[component_constraints_[next_constraint]]);
  }
}

inline void MaxMinSolver::collect_constraint_users(Constraint& cnst)
{
  cnst.remaining = cnst.capacity;
  cnst.usage = 0;
  cnst.free_users = 0;
  cnst.users_at_max = 0;
  for (const User& user : cnst.users) {
    Variable& var = variables_[user.variable];
    if (var.component_mark != last_component_mark_)
      enter_component(user.variable);
    if (user.coefficient > 0) {
      var.constrained = true;
      ++cnst.free_users;
      add_to_usage(cnst, user.coefficient / var.penalty);
    }
  }
}

// Progressive filling: repeatedly take the lowest pending level (a constraint saturating or a bound reached),
// together with everything within the tie window, and fix the variables concerned. Levels only rise.
void MaxMinSolver::solve_component()
{
  level_ = 0;
  if (component_variables_.size() == 1 && solve_lone_variable())
    return finish_component();
  prepare_component();
  while (free_variable_count_ > 0) {
    double lowest = lowest_pending_level();
    // A free variable has a bound or a constraint with free users, so some level is pending; it can only be
    // infinite if coefficient/penalty underflows. Such variables are left at 0, like unconstrained ones.
    if (!std::isfinite(lowest))
      break;
    level_ = std::max(level_, lowest);
    collect_saturating_group(level_ * (1 + kRelativePrecision));
    // Bounds first: a variable whose bound ties with its constraint's level gets exactly its bound.
    group_fixed_.clear();
    for (VarId v : saturating_bounds_)
      if (!variables_[v].fixed)
        fix_variable(v, variables_[v].bound);
    for (CnstId c : saturating_constraints_)
      for (const User& user : constraints_[c].users)
        if (user.coefficient > 0 && !variables_[user.variable].fixed)
          fix_variable(user.variable, level_ / variables_[user.variable].penalty);
    // What the group's variables release only moves the levels the next groups saturate at: after the last group
    // (in online LU, most components end with their first or second), it would be work for nothing. Released after
    // the whole group, in the order they were fixed, the constraints see the same subtractions in the same order:
    // the choice of who is fixed depends on the flags only.
    if (free_variable_count_ == 0)
      break;
    for (VarId v : group_fixed_)
      release_from_constraints(variables_[v]);
    update_outdated_levels();
  }
  finish_component();
}

void MaxMinSolver::finish_component()
{
  for (VarId v : component_variables_) {
    if (!variables_[v].fixed) // only after the underflow break above
      variables_[v].value = 0;
    modified_.push_back(v);
  }
  if (track_constraints_)
    solved_constraints_.insert(solved_constraints_.end(), component_constraints_.begin(), component_constraints_.end());
}

// The filling of a component with one variable, in closed form: the lowest of its constraints' saturation levels and
// its bound level is reached first, and fixes it, at its bound if that is within the tie window, else at level /
// penalty. The same operations on the same numbers as the filling (each level is capacity / (coefficient /
// penalty), compared as the heap compares them), so the same bits, without loading the heap or sorting the bounds:
// a third of the components online LU solves have one flow. Returns false, having changed nothing, for what only
// the filling handles as it does (a level that is NaN or negative: a weight underflowing to 0).
bool MaxMinSolver::solve_lone_variable()
{
  Variable& var = variables_[component_variables_.front()];
  const bool bounded = var.enabled() && var.bound >= 0;
  double lowest = std::numeric_limits<double>::infinity();
  for (CnstId c : component_constraints_) {
    const Constraint& cnst = constraints_[c];
    if (cnst.free_users == 0)
      continue;
    const double level = saturation_level(cnst);
    if (!(level >= 0) || cnst.usage <= 0)
      return false;
    lowest = std::min(lowest, level);
  }
  if (!bounded && !var.constrained) { // fixed at 0 by prepare_component()
    var.fixed = true;
    return true;
  }
  const double bound_level = bounded ? var.bound * var.penalty : std::numeric_limits<double>::infinity();
  if (bounded)
    lowest = std::min(lowest, bound_level);
  if (!std::isfinite(lowest)) // left at 0, as after the filling's underflow break
    return true;
  level_ = std::max(level_, lowest);
  var.fixed = true;
  var.value = bounded && bound_level <= level_ * (1 + kRelativePrecision) ? var.bound : level_ / var.penalty;
  return true;
}

// Once the component is collected: loads the saturation heap (constraints with free users) and sorts the bounded
// variables by bound level. Variables that are disabled or neither constrained nor bounded are fixed at 0 right away.
void MaxMinSolver::prepare_component()
{
  saturation_heap_.clear();
  bounds_by_level_.clear();
  next_bound_ = 0;
  free_variable_count_ = 0;
  for (CnstId c : component_constraints_)
    if (constraints_[c].free_users > 0)
      saturation_heap_.push_unordered(c, saturation_level(constraints_[c]));
  saturation_heap_.heapify();
  for (VarId v : component_variables_) {
    Variable& var = variables_[v];
    bool bounded = var.enabled() && var.bound >= 0;
    if (bounded)
      bounds_by_level_.emplace_back(var.bound * var.penalty, v);
    if (bounded || var.constrained)
      ++free_variable_count_;
    else
      var.fixed = true;
  }
  // Sorted once rather than kept in a heap: nothing joins during the filling, and the heap was popped one sift at a
  // time for every bounded variable a constraint fixed first (every flow of the flow models is bounded). Sorted by
  // (bound level, id), a total order (levels are never NaN), the bounds come in the order the heap gave them.
  std::sort(bounds_by_level_.begin(), bounds_by_level_.end());
}

inline void MaxMinSolver::add_to_usage(Constraint& cnst, double weight)
{
  if (cnst.sharing == Sharing::Shared) {
    cnst.usage += weight;
  } else if (weight > cnst.usage) {
    cnst.usage = weight;
    cnst.users_at_max = 1;
  } else if (weight == cnst.usage) {
    ++cnst.users_at_max;
  }
}

// The level at which the constraint would saturate if all its free users kept rising together, never below the
// current level: rounding may leave a few ulps of capacity (or a negative remainder) that mean "saturated now".
inline double MaxMinSolver::saturation_level(const Constraint& cnst) const
{
  double available = cnst.sharing == Sharing::Shared ? cnst.remaining : cnst.capacity;
  return std::max(available / cnst.usage, level_);
}

// Drops finished entries from the front of the heap and of the bounds, and returns the lowest level still pending.
double MaxMinSolver::lowest_pending_level()
{
  double lowest = saturation_heap_.lowest_key(finished_constraint());
  while (next_bound_ < bounds_by_level_.size() && variables_[bounds_by_level_[next_bound_].second].fixed)
    ++next_bound_;
  if (next_bound_ < bounds_by_level_.size())
    lowest = std::min(lowest, bounds_by_level_[next_bound_].first);
  return lowest;
}

// The group is chosen before any variable is fixed, so that fixing one member cannot push another out of it.
void MaxMinSolver::collect_saturating_group(double threshold)
{
  saturating_constraints_.clear();
  saturating_bounds_.clear();
  saturation_heap_.pop_up_to(threshold, finished_constraint(), saturating_constraints_);
  while (next_bound_ < bounds_by_level_.size() && bounds_by_level_[next_bound_].first <= threshold) {
    VarId v = bounds_by_level_[next_bound_++].second;
    if (!variables_[v].fixed)
      saturating_bounds_.push_back(v);
  }
}

inline void MaxMinSolver::fix_variable(VarId v, double value)
{
  Variable& var = variables_[v];
  var.fixed = true;
  var.value = value;
  --free_variable_count_;
  group_fixed_.push_back(v);
}

inline void MaxMinSolver::release_from_constraints(const Variable& var)
{
  for (const Use& use : var.uses)
    if (use.coefficient > 0 && in_component(use.constraint)) // always, but under lazy marking
      release_from_constraint(use.constraint, var, use.coefficient);
}

// The variable stops rising: the constraint loses a free user and, if shared, the capacity it now consumes.
inline void MaxMinSolver::release_from_constraint(CnstId c, const Variable& var, double coefficient)
{
  Constraint& cnst = constraints_[c];
  --cnst.free_users;
  if (cnst.free_users == 0)
    return; // finished; if still in the heap, it is dropped when it reaches the top
  double weight = coefficient / var.penalty;
  if (cnst.sharing == Sharing::Shared) {
    cnst.remaining -= coefficient * var.value;
    cnst.usage -= weight;
  } else if (weight == cnst.usage) {
    --cnst.users_at_max; // at 0, the usage is rescanned in update_outdated_levels()
  }
  if (!cnst.level_outdated && saturation_heap_.contains(c)) {
    cnst.level_outdated = true;
    outdated_constraints_.push_back(c);
  }
}

// Once per group rather than once per fixed variable: a constraint crossed by many of the group's variables
// is rescanned (if need be) and moved in the heap once.
void MaxMinSolver::update_outdated_levels()
{
  for (CnstId c : outdated_constraints_) {
    Constraint& cnst = constraints_[c];
    cnst.level_outdated = false;
    if (cnst.free_users == 0 || !saturation_heap_.contains(c))
      continue;
    // Subtracting many weights leaves rounding noise, large relative to the weight of the last user or two.
    // A scan makes the usage exact; it happens at most once per constraint, as the count only goes down.
    if (cnst.sharing == Sharing::Shared && (cnst.free_users == 1 || cnst.usage <= 0))
      recompute_shared_usage(cnst);
    // A fatpipe whose users at the maximum are all fixed has a new, lower maximum to find.
    if (cnst.sharing == Sharing::Fatpipe && cnst.users_at_max == 0)
      rescan_fatpipe_usage(cnst);
    saturation_heap_.update(c, saturation_level(cnst));
  }
  outdated_constraints_.clear();
}

void MaxMinSolver::recompute_shared_usage(Constraint& cnst)
{
  cnst.usage = 0;
  for (const User& user : cnst.users)
    if (user.coefficient > 0 && !variables_[user.variable].fixed)
      cnst.usage += user.coefficient / variables_[user.variable].penalty;
}

void MaxMinSolver::rescan_fatpipe_usage(Constraint& cnst)
{
  cnst.usage = 0;
  cnst.users_at_max = 0;
  for (const User& user : cnst.users)
    if (user.coefficient > 0 && !variables_[user.variable].fixed)
      add_to_usage(cnst, user.coefficient / variables_[user.variable].penalty);
}

// Each variable appears once (components are disjoint). Small lists are sorted; large ones go through a bitmap
// indexed by id, which costs one pass over (highest id / 64) words and no comparisons.
void MaxMinSolver::sort_modified()
{
  size_t count = modified_.size();
  size_t word_count = modified_bits_.size();
  if (count * std::bit_width(count) <= word_count + count) {
    std::sort(modified_.begin(), modified_.end());
    return;
  }
  for (VarId v : modified_)
    modified_bits_[v / 64] |= uint64_t{1} << (v % 64);
  modified_.clear();
  for (size_t word = 0; word < word_count; ++word) {
    for (uint64_t bits = modified_bits_[word]; bits != 0; bits &= bits - 1)
      modified_.push_back(static_cast<VarId>(word * 64 + std::countr_zero(bits)));
    modified_bits_[word] = 0;
  }
}

} // namespace mpisim::solver
