// Weighted max-min fair sharing of capacities between variables: the bandwidth-sharing solver.
//
// This layer knows nothing of simulation: variables and constraints are plain integer ids, values are doubles.
// The network model maps flows to variables and links to constraints; a flow's rate is its variable's value.
//
// What is computed (the allocation of SimGrid's LMM, "penalty" being its sharing penalty):
//  - An enabled variable v (penalty p_v > 0) gets x_v = level_v / p_v, so at equal level a variable with twice the
//    penalty gets half the share.
//  - Progressive filling: all levels rise together from 0. A Shared constraint c saturates when
//    sum_v a_cv * x_v = C_c; a Fatpipe constraint when max_v a_cv * x_v = C_c. When a constraint saturates, every
//    still-free variable using it (with a_cv > 0) is fixed at the current level; a bounded variable is fixed at its
//    bound when its level reaches bound_v * p_v. Filling goes on with the free variables until none is left.
//  - Fatpipe detail (as in SimGrid): when the variable with the largest a_cv / p_v reaches the capacity, the other
//    variables of that fatpipe are fixed too, at the same level, even if they have a larger penalty.
//  - Degenerate cases: a disabled variable (penalty 0) gets 0 and is invisible to constraints; a constraint of
//    capacity 0 gives 0 to its variables; a variable with a bound but no constraint gets its bound; a variable
//    with neither gets 0, not infinity (callers handle flows with no link themselves); a bound of 0 gives 0.
//
// Ties. Levels within kRelativePrecision of the lowest pending one are treated as equal: their constraints and
// bounds saturate together, at the lowest level. This makes symmetric situations that reach the same level through
// different arithmetic give bit-identical values (hence identical completion dates), at the cost of fixing a
// variable up to 1e-9 (relative) below its exact share. The window only has to absorb rounding noise, which stays
// around 1e-13 even after thousands of additions, so it is much narrower than SimGrid's default maxmin/precision
// (1e-5), which also serves to detect exhausted capacity; here that is done by counting free variables instead.
//
// Incremental solving. Variables and constraints linked through variables form connected components, which are
// independent problems. solve() recomputes only the components touched since the last call; ties are decided within
// a component, so a component's values never depend on what else was touched. Results are deterministic: only
// vectors indexed by id are iterated, never containers ordered by address, so the same sequence of calls gives the
// same bits. (A different history, e.g. other removals, may order a constraint's sums differently: last bits only.)
//
// Lazy marking (set_marking(Marking::SimGridLazy)): what is recomputed follows SimGrid's LMM with selective update
// instead of whole components. Each change marks a constraint and, at that moment, every constraint reachable from it
// through enabled variables not yet visited since the last solve; a change of a variable marks from its *first*
// constraint only (expansion order), relying on that walk to reach the others. A variable enabled after its first
// constraint was marked in the same round is therefore not followed: its other constraints stay unmarked unless
// something else marks one of them. solve() recomputes the enabled users of the marked constraints against the
// marked constraints only, and nothing else: a variable of an unmarked constraint keeps its value even if a
// recomputed neighbour now overloads that constraint. This is an artefact of SimGrid 3.32, not physics; the `smpi`
// model reproduces it (docs/models.md, "How SimGrid's flow model turns shares into dates").
// The first walk after a solve marks a whole component; when it is the only walk before the next solve and no user
// left a constraint meanwhile, solve() takes that component from the walk's lists instead of searching it again.
//
// Cost: a component of V variables, C constraints and E (variable, constraint) pairs is solved in
// O(E + (V + C) log C + V log B) for B bounded variables, plus a rescan of a fatpipe's users each time the filling
// fixes the last of its variables with the largest coefficient/penalty (free when they all have the same), and of
// a shared constraint's users once, when one user is left (to wipe out the rounding noise of the subtractions).
// Nothing is allocated once the vectors have grown to the system's size.
#pragma once

#include "solver/IndexedMinHeap.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace mpisim::solver {

using VarId = uint32_t;
using CnstId = uint32_t;

enum class Sharing : uint8_t {
  Shared,  // the sum of the consumptions is limited (a link, a CPU)
  Fatpipe, // each consumption alone is limited (a backbone whose aggregate bandwidth is not the bottleneck)
};

// What solve() recomputes: whole connected components of what changed, or what SimGrid's lazy marking reaches.
enum class Marking : uint8_t { Components, SimGridLazy };

class MaxMinSolver {
public:
  // Choose before building the system (switching with changes pending is refused).
  void set_marking(Marking marking);
  Marking marking() const { return marking_; }

  // Levels closer than this (relative) saturate together. See the file comment.
  static constexpr double kRelativePrecision = 1e-9;

  // capacity must be finite and >= 0. Constraints live as long as the solver.
  CnstId add_constraint(double capacity, Sharing sharing);
  void set_capacity(CnstId c, double capacity);
  double capacity(CnstId c) const;

  // A variable with penalty 0 is disabled: value 0, consumes nothing (used while a flow pays its latency).
  // bound < 0 means unbounded. Penalty must be finite and >= 0, bound finite.
  VarId add_variable(double penalty, double bound);
  void set_penalty(VarId v, double penalty);
  void set_bound(VarId v, double bound);
  // v uses c with this coefficient (finite, >= 0). Expanding the same pair twice adds the coefficients on a Shared
  // constraint and keeps the larger one on a Fatpipe (SimGrid's rule).
  void expand(CnstId c, VarId v, double coefficient);
  // Its id may be reused by a later add_variable().
  void remove_variable(VarId v);

  // Recompute the components touched since the last solve. Setting a parameter to its current value touches nothing.
  void solve();
  // The value computed by the last solve that covered v (0 before that). Inline: the models call it for every
  // variable a solve recomputed.
  double value(VarId v) const
  {
    require_live_variable(v, "value");
    return variables_[v].value;
  }
  // Live variables whose value the last solve() recomputed, changed or not, in ascending id order.
  const std::vector<VarId>& modified() const { return modified_; }
  // Under lazy marking, the same variables in the order SimGrid's LMM lists its changed actions: the marked
  // constraints in marking order, each one's users with a coefficient > 0 most recently enabled there first, each
  // variable once; then those no constraint reaches, in ascending id order. (The order a model reschedules them in
  // decides between ends at the same exact date: docs/specifications/same-date-order.md.) Empty otherwise.
  const std::vector<VarId>& modified_in_simgrid_order() const { return simgrid_order_; }
  size_t variable_count() const { return live_variable_count_; }
  // Under lazy marking, how many solves took their component from the marking walk instead of searching it (tests).
  unsigned long walked_component_reuses() const { return walked_component_reuses_; }

  // Constraint consumption, for observers of resource use (link bandwidth over time). Off by default: a solve then
  // spends nothing on it. When on, solved_constraints() lists the constraints of the components the last solve()
  // recomputed (the only ones whose consumption can have changed), in the order it met them; under lazy marking,
  // the marked constraints and then the other constraints of the variables recomputed.
  void track_constraints(bool on) { track_constraints_ = on; }
  const std::vector<CnstId>& solved_constraints() const { return solved_constraints_; }
  // What the enabled variables consume of c at their last computed values: sum of coefficient x value on a Shared
  // constraint, the largest coefficient x value on a Fatpipe. O(users of c).
  double consumption(CnstId c) const;
  // How many enabled variables use c with a coefficient > 0 and a value > 0.
  uint32_t active_users(CnstId c) const;

private:
  // One (variable, constraint) pair is stored twice, once on each side, each copy knowing where the other is,
  // so that either side can be walked contiguously and a variable can leave a constraint in O(1).
  struct Use { // in Variable::uses
    CnstId constraint;
    uint32_t index_in_users; // meaningful while the variable is enabled
    double coefficient;
  };
  struct User { // in Constraint::users, only for enabled variables
    VarId variable;
    uint32_t index_in_uses;
    double coefficient;
    uint32_t index_in_age; // its entry in Constraint::by_age
  };
  // Constraint::by_age lists the users in the order they joined (SimGrid walks them latest first). A user leaving
  // leaves a hole (variable kNoVariable), squeezed out once holes pass an eighth of the users: users themselves are
  // removed by swapping with the last, which keeps the solve's sums in their order but loses the order of joining.
  // Each entry knows its user's slot (kept up to date when a user moves), so the walks read the coefficient and the
  // squeeze patches the users without going through the variables' scattered records.
  struct AgeEntry {
    VarId variable;
    uint32_t index_in_users;
  };
  static constexpr VarId kNoVariable = UINT32_MAX;
  // Holes are squeezed out once there are more than users / kAgeHolesPerUser of them: every lazy marking walks
  // a marked constraint's whole list, holes included, once per solve, while a squeeze costs one pass per
  // users / kAgeHolesPerUser departures.
  static constexpr uint32_t kAgeHolesPerUser = 8;

  // One cache line each (64 bytes, aligned): online, the program's computation evicts the solver's records between
  // MPI calls, and a solve reads a record of each variable it recomputes.
  struct alignas(64) Variable {
    double penalty = 0;
    double bound = -1;
    double value = 0;
    std::vector<Use> uses;
    uint64_t component_mark = 0; // which component search last reached it
    bool alive = false;
    bool dirty = false;       // listed in dirty_variables_
    bool fixed = false;       // solve scratch: value decided
    bool constrained = false; // solve scratch: uses some constraint with a coefficient > 0
    bool enabled() const { return penalty > 0; }
  };

  // Fields ordered by size, no padding between them (96 bytes): what the marking walk reads (by_age, users) first.
  struct Constraint {
    std::vector<AgeEntry> by_age;
    std::vector<User> users;
    uint64_t component_mark = 0;
    double capacity = 0;
    // Solve scratch, over the users still free and with a coefficient > 0:
    double remaining = 0; // Shared: capacity minus what the fixed users consume
    double usage = 0;     // Shared: sum of coefficient/penalty; Fatpipe: max of it
    uint32_t age_holes = 0;
    uint32_t free_users = 0;   // how many
    uint32_t users_at_max = 0; // Fatpipe: how many reach `usage`
    Sharing sharing = Sharing::Shared;
    bool level_outdated = false; // listed in outdated_constraints_
  };

  // Misuse is cheap to detect here and expensive to debug later, so it throws even in release builds. The checks run
  // on every call, so they are inline; building the message is not.
  void require_live_variable(VarId v, const char* caller) const
  {
    if (v >= variables_.size() || !variables_[v].alive) [[unlikely]]
      report_no_live_variable(v, caller);
  }
  void require_constraint(CnstId c, const char* caller) const
  {
    if (c >= constraints_.size()) [[unlikely]]
      report_no_constraint(c, caller);
  }
  [[noreturn]] static void report_no_live_variable(VarId v, const char* caller);
  [[noreturn]] static void report_no_constraint(CnstId c, const char* caller);

  void mark_dirty(VarId v);
  void mark_dirty_constraint(CnstId c);
  // Lazy marking: marks c and what SimGrid's walk reaches from it (see the file comment).
  void mark_lazily(CnstId c);
  void mark_from_first_constraint(VarId v);
  void join_users(CnstId c, VarId v, uint32_t index_in_uses, double coefficient);
  void squeeze_age_holes(Constraint& cnst);
  void order_modified_as_simgrid();
  bool lazy() const { return marking_ == Marking::SimGridLazy; }
  bool in_component(CnstId c) const { return constraints_[c].component_mark == last_component_mark_; }
  void attach_to_constraints(VarId v);
  void detach_from_constraints(VarId v);

  // solve() steps, one component at a time.
  void solve_marked(uint64_t first_mark_of_this_solve);
  void solve_component_of(VarId v);
  void solve_component_of_constraint(CnstId c);
  bool walk_is_the_component() const;
  bool solve_walked_component();
  void start_component();
  void enter_component(VarId v);
  void enter_component_constraint(CnstId c);
  void collect_component();
  void collect_constraint_users(Constraint& cnst);
  void solve_component();
  bool solve_lone_variable();
  void finish_component();
  void prepare_component();
  static void add_to_usage(Constraint& cnst, double weight);
  double saturation_level(const Constraint& cnst) const;
  double lowest_pending_level();
  // For the saturation heap: a constraint whose users are all fixed saturates nothing any more.
  auto finished_constraint() const
  {
    return [this](CnstId c) { return constraints_[c].free_users == 0; };
  }
  void collect_saturating_group(double threshold);
  void fix_variable(VarId v, double value);
  void release_from_constraints(const Variable& var);
  void release_from_constraint(CnstId c, const Variable& var, double coefficient);
  void update_outdated_levels();
  void recompute_shared_usage(Constraint& cnst);
  void rescan_fatpipe_usage(Constraint& cnst);
  void sort_modified();

  std::vector<Variable> variables_;
  std::vector<Constraint> constraints_;
  std::vector<VarId> free_variable_ids_;
  size_t live_variable_count_ = 0;

  std::vector<VarId> dirty_variables_;
  std::vector<CnstId> dirty_constraints_;
  // By constraint id, 1 while listed in dirty_constraints_ (in lazy marking: marked since the last solve). A compact
  // array rather than a field of Constraint: the lazy marking walk reads it for every use of every user it passes,
  // and online, where the program's computation evicts the solver's records between calls, a byte array stays in
  // far fewer cache lines than the records.
  std::vector<uint8_t> constraint_dirty_;
  std::vector<VarId> modified_;
  bool track_constraints_ = false;
  std::vector<CnstId> solved_constraints_;

  // Solve scratch, kept between calls so steady-state solves do not allocate.
  uint64_t last_component_mark_ = 0;
  std::vector<VarId> component_variables_;
  std::vector<CnstId> component_constraints_;
  IndexedMinHeap saturation_heap_;                        // constraints with free users, by saturation level
  std::vector<std::pair<double, VarId>> bounds_by_level_; // bounded variables by (bound level, id), ascending
  size_t next_bound_ = 0;                                 // the first of them not passed yet
  std::vector<CnstId> saturating_constraints_;
  std::vector<VarId> saturating_bounds_;
  std::vector<VarId> group_fixed_;           // the variables the current group fixed, in that order
  std::vector<CnstId> outdated_constraints_; // in the heap, with a level to recompute after the current group
  size_t free_variable_count_ = 0;
  double level_ = 0;                    // the filling level reached in the component being solved
  std::vector<uint64_t> modified_bits_; // one bit per variable id, all clear between solves

  Marking marking_ = Marking::Components;
  // Lazy marking: by variable id, how far the walks got through its uses since the last solve: kVisited once all its
  // constraints were marked, else how many of its first uses are known to be marked (a compact array, read for every
  // user the walk passes). Marks only accumulate until the solve, so every frame walking the variable may start its
  // search for an unmarked constraint there: a frame nested in another that walks the same variable (the walk enters
  // each of its constraints in turn, where it is still unvisited) does not rescan the uses the outer frames passed.
  // The ids raised are the visited ones (a walk ends with every user it entered visited), reset by solve().
  static constexpr uint32_t kVisited = UINT32_MAX;
  std::vector<uint32_t> walk_progress_;
  std::vector<VarId> visited_variables_;
  struct WalkFrame { // lazy marking: one constraint of the depth-first walk
    CnstId constraint;
    size_t unwalked; // its users by age not walked yet: the first `unwalked` (the walk goes newest first)
  };
  std::vector<WalkFrame> walk_stack_;
  std::vector<CnstId> marked_order_; // lazy marking: the constraints the solve recomputes, in marking order
  // Lazy marking: walks started since the last solve, and whether a user left a constraint after the first. One walk
  // and no departure since: its marked constraints and visited variables are the one component to solve.
  uint32_t walks_since_solve_ = 0;
  bool users_left_after_walk_ = false;
  unsigned long walked_component_reuses_ = 0;
  std::vector<VarId> simgrid_order_;
};

} // namespace mpisim::solver
