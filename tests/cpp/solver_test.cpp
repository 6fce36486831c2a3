// Tests of the max-min bandwidth-sharing solver: hand-solved scenarios that explain the model, then a randomized
// comparison of MaxMinSolver (including incremental sequences) against the slow ReferenceMaxMin.
#include "solver/MaxMinSolver.hpp"
#include "solver/ReferenceMaxMin.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

namespace mpisim::solver {
namespace {

constexpr double kUnbounded = -1;

// Hand-computed expectations are exact rationals; allow only rounding.
void expect_share(double actual, double expected)
{
  EXPECT_NEAR(actual, expected, 1e-12 * std::max(1.0, std::abs(expected)));
}

std::vector<VarId> ids(std::initializer_list<VarId> list)
{
  return list;
}

// ---- Hand-solved scenarios -------------------------------------------------------------------------------------

TEST(MaxMinSolver, ConstraintConsumptionIsReportedOnlyWhenTracked)
{
  // Link a (C = 10) carries flows 1 and 2, link b (C = 4) flow 2 only, link c (C = 7) nothing: x2 = 4 (b saturates
  // first, at level 4), x1 = 10 - 4 = 6. Consumption of a = 6 + 4 = 10 with 2 active users, of b = 4 with 1.
  MaxMinSolver solver;
  CnstId a = solver.add_constraint(10, Sharing::Shared);
  CnstId b = solver.add_constraint(4, Sharing::Shared);
  CnstId c = solver.add_constraint(7, Sharing::Shared);
  VarId x1 = solver.add_variable(1, kUnbounded);
  VarId x2 = solver.add_variable(1, kUnbounded);
  solver.expand(a, x1, 1);
  solver.expand(a, x2, 1);
  solver.expand(b, x2, 1);
  solver.solve();
  EXPECT_TRUE(solver.solved_constraints().empty()); // not tracked: nothing listed
  expect_share(solver.consumption(a), 10);
  expect_share(solver.consumption(b), 4);
  EXPECT_EQ(solver.active_users(a), 2u);
  EXPECT_EQ(solver.consumption(c), 0);

  // Tracked: removing x2 re-solves the component {a, b}; x1 alone gets 10, b carries nothing.
  solver.track_constraints(true);
  solver.remove_variable(x2);
  solver.solve();
  std::vector<CnstId> solved = solver.solved_constraints();
  std::sort(solved.begin(), solved.end());
  EXPECT_EQ(solved, (std::vector<CnstId>{a, b}));
  expect_share(solver.consumption(a), 10);
  EXPECT_EQ(solver.active_users(a), 1u);
  EXPECT_EQ(solver.consumption(b), 0);
  EXPECT_EQ(solver.active_users(b), 0u);
}

TEST(MaxMinSolver, OneFlowOnOneLink)
{
  // x = C = 10.
  MaxMinSolver solver;
  CnstId link = solver.add_constraint(10, Sharing::Shared);
  VarId flow = solver.add_variable(1, kUnbounded);
  solver.expand(link, flow, 1);
  solver.solve();
  expect_share(solver.value(flow), 10);
  EXPECT_EQ(solver.modified(), ids({flow}));
  EXPECT_EQ(solver.variable_count(), 1u);
}

TEST(MaxMinSolver, LoneVariableFollowsTheFillingsRules)
{
  // A component of one variable is solved in closed form; the rules are the filling's. Penalty 2 on a shared link
  // C = 10 with coefficient 1: the link saturates at level 10 / (1/2) = 20, so x = 20 / 2 = 10 unless the bound
  // level (bound x 2) comes first, or within the tie window (1e-9 relative) after it: then x is the bound itself.
  for (Marking marking : {Marking::Components, Marking::SimGridLazy}) {
    MaxMinSolver solver;
    solver.set_marking(marking);
    CnstId link = solver.add_constraint(10, Sharing::Shared);
    CnstId fatpipe = solver.add_constraint(6, Sharing::Fatpipe);
    VarId flow = solver.add_variable(2, 11); // bound level 22 > 20 * (1 + 1e-9)
    solver.expand(link, flow, 1);
    solver.solve();
    EXPECT_EQ(solver.value(flow), 10);
    EXPECT_EQ(solver.modified_in_simgrid_order(), marking == Marking::SimGridLazy ? ids({flow}) : ids({}));

    const double tied_bound = 10 * (1 + 1e-10); // level 20 (1 + 1e-10): in the window, the bound binds exactly
    solver.set_bound(flow, tied_bound);
    solver.solve();
    EXPECT_EQ(solver.value(flow), tied_bound);

    solver.set_bound(flow, 4); // level 8 < 20
    solver.solve();
    EXPECT_EQ(solver.value(flow), 4);

    // The fatpipe with coefficient 3 saturates at level 6 / (3/2) = 4, before the link: x = 4 / 2 = 2.
    solver.set_bound(flow, kUnbounded);
    solver.expand(fatpipe, flow, 3);
    solver.solve();
    EXPECT_EQ(solver.value(flow), 2);

    // A variable using its constraints with coefficient 0 only and no bound is fixed at 0.
    VarId weightless = solver.add_variable(1, kUnbounded);
    CnstId idle = solver.add_constraint(5, Sharing::Shared);
    solver.expand(idle, weightless, 0);
    solver.solve();
    EXPECT_EQ(solver.value(weightless), 0);
  }
}

TEST(MaxMinSolver, TwoFlowsEqualPenaltiesShareEqually)
{
  // x1 = x2 = λ, x1 + x2 = 10  =>  5 and 5, bit for bit.
  MaxMinSolver solver;
  CnstId link = solver.add_constraint(10, Sharing::Shared);
  VarId a = solver.add_variable(1, kUnbounded);
  VarId b = solver.add_variable(1, kUnbounded);
  solver.expand(link, a, 1);
  solver.expand(link, b, 1);
  solver.solve();
  expect_share(solver.value(a), 5);
  EXPECT_EQ(solver.value(a), solver.value(b));
}

TEST(MaxMinSolver, SharesAreInverselyProportionalToPenalties)
{
  // x1 = λ/1, x2 = λ/2, x1 + x2 = 10  =>  λ = 20/3, x1 = 20/3, x2 = 10/3.
  MaxMinSolver solver;
  CnstId link = solver.add_constraint(10, Sharing::Shared);
  VarId light = solver.add_variable(1, kUnbounded);
  VarId heavy = solver.add_variable(2, kUnbounded);
  solver.expand(link, light, 1);
  solver.expand(link, heavy, 1);
  solver.solve();
  expect_share(solver.value(light), 20.0 / 3);
  expect_share(solver.value(heavy), 10.0 / 3);
}

TEST(MaxMinSolver, FatpipeGivesEachFlowTheFullCapacity)
{
  // Fatpipe: max(x1, x2, x3) <= 10, so each flow gets 10.
  MaxMinSolver solver;
  CnstId backbone = solver.add_constraint(10, Sharing::Fatpipe);
  std::vector<VarId> flows;
  for (int i = 0; i < 3; ++i) {
    flows.push_back(solver.add_variable(1, kUnbounded));
    solver.expand(backbone, flows.back(), 1);
  }
  solver.solve();
  for (VarId flow : flows)
    expect_share(solver.value(flow), 10);
}

TEST(MaxMinSolver, FatpipeFixesAllItsFlowsAtTheSameLevel)
{
  // Documented SimGrid semantics: the fatpipe saturates when max(a/p) * λ = C, i.e. λ = 10 with p = 1, and then
  // fixes every flow of it at that level: x1 = 10/1 = 10, x2 = 10/2 = 5 (not 10).
  MaxMinSolver solver;
  CnstId backbone = solver.add_constraint(10, Sharing::Fatpipe);
  VarId light = solver.add_variable(1, kUnbounded);
  VarId heavy = solver.add_variable(2, kUnbounded);
  solver.expand(backbone, light, 1);
  solver.expand(backbone, heavy, 1);
  solver.solve();
  expect_share(solver.value(light), 10);
  expect_share(solver.value(heavy), 5);
}

TEST(MaxMinSolver, SplitDuplexDirectionsDoNotInterfere)
{
  // One link, two constraints (up, down), C = 10 each.
  // Up: x_a + x_c = 10; down: x_b = 10. Equal penalties  =>  a = c = 5, b = 10.
  MaxMinSolver solver;
  CnstId up = solver.add_constraint(10, Sharing::Shared);
  CnstId down = solver.add_constraint(10, Sharing::Shared);
  VarId a = solver.add_variable(1, kUnbounded);
  VarId b = solver.add_variable(1, kUnbounded);
  solver.expand(up, a, 1);
  solver.expand(down, b, 1);
  solver.solve();
  expect_share(solver.value(a), 10);
  expect_share(solver.value(b), 10);

  VarId c = solver.add_variable(1, kUnbounded);
  solver.expand(up, c, 1);
  solver.solve();
  expect_share(solver.value(a), 5);
  expect_share(solver.value(c), 5);
  expect_share(solver.value(b), 10);
}

TEST(MaxMinSolver, ThreeLinkChainIsClassicMaxMin)
{
  // Links L1, L2, L3 of capacities 10, 20, 30. Long flow f0 crosses all three; f1, f2, f3 use one link each.
  //   L1: f0 + f1 = 10, L2: f0 + f2 = 20, L3: f0 + f3 = 30.
  // Levels rise together: L1 saturates first at λ = 10/2 = 5  =>  f0 = f1 = 5.
  // Then L2 has 20 - 5 = 15 left for f2 alone  =>  f2 = 15; L3 has 30 - 5 = 25  =>  f3 = 25.
  MaxMinSolver solver;
  CnstId l1 = solver.add_constraint(10, Sharing::Shared);
  CnstId l2 = solver.add_constraint(20, Sharing::Shared);
  CnstId l3 = solver.add_constraint(30, Sharing::Shared);
  VarId f0 = solver.add_variable(1, kUnbounded);
  VarId f1 = solver.add_variable(1, kUnbounded);
  VarId f2 = solver.add_variable(1, kUnbounded);
  VarId f3 = solver.add_variable(1, kUnbounded);
  for (CnstId link : {l1, l2, l3})
    solver.expand(link, f0, 1);
  solver.expand(l1, f1, 1);
  solver.expand(l2, f2, 1);
  solver.expand(l3, f3, 1);
  solver.solve();
  expect_share(solver.value(f0), 5);
  expect_share(solver.value(f1), 5);
  expect_share(solver.value(f2), 15);
  expect_share(solver.value(f3), 25);
}

TEST(MaxMinSolver, BoundsBindOrNot)
{
  // Alone on C = 10: bound 3 binds (x = 3); bound 20 does not (x = 10).
  // Shared C = 10 by a (bound 2) and b: a stops at 2, b takes 10 - 2 = 8.
  MaxMinSolver solver;
  CnstId alone_binding = solver.add_constraint(10, Sharing::Shared);
  CnstId alone_loose = solver.add_constraint(10, Sharing::Shared);
  CnstId shared = solver.add_constraint(10, Sharing::Shared);
  VarId binding = solver.add_variable(1, 3);
  VarId loose = solver.add_variable(1, 20);
  VarId a = solver.add_variable(1, 2);
  VarId b = solver.add_variable(1, kUnbounded);
  solver.expand(alone_binding, binding, 1);
  solver.expand(alone_loose, loose, 1);
  solver.expand(shared, a, 1);
  solver.expand(shared, b, 1);
  solver.solve();
  expect_share(solver.value(binding), 3);
  expect_share(solver.value(loose), 10);
  expect_share(solver.value(a), 2);
  expect_share(solver.value(b), 8);

  // Loosening a's bound to 6 (above the fair share 5): a = b = 5.
  solver.set_bound(a, 6);
  solver.solve();
  expect_share(solver.value(a), 5);
  expect_share(solver.value(b), 5);
}

TEST(MaxMinSolver, BoundIsReachedAtBoundTimesPenalty)
{
  // a: p = 2, bound 4 (level 8); b: p = 1. C = 10: a = λ/2, b = λ.
  // Unbounded, λ = 20/3 < 8, so the bound does not bind: a = 10/3, b = 20/3.
  MaxMinSolver solver;
  CnstId link = solver.add_constraint(10, Sharing::Shared);
  VarId a = solver.add_variable(2, 4);
  VarId b = solver.add_variable(1, kUnbounded);
  solver.expand(link, a, 1);
  solver.expand(link, b, 1);
  solver.solve();
  expect_share(solver.value(a), 10.0 / 3);
  expect_share(solver.value(b), 20.0 / 3);
  // Bound 3 (level 6 < 20/3) binds: a = 3, b = 7.
  solver.set_bound(a, 3);
  solver.solve();
  expect_share(solver.value(a), 3);
  expect_share(solver.value(b), 7);
}

TEST(MaxMinSolver, CrossTrafficCoefficientOnOneSharedLink)
{
  // One shared link used both ways by one flow: data with coefficient 1, acknowledgements with 0.05,
  // expanded separately (the coefficients add): 1.05 x = 10  =>  x = 10 / 1.05.
  MaxMinSolver solver;
  CnstId link = solver.add_constraint(10, Sharing::Shared);
  VarId flow = solver.add_variable(1, kUnbounded);
  solver.expand(link, flow, 1);
  solver.expand(link, flow, 0.05);
  solver.solve();
  expect_share(solver.value(flow), 10 / 1.05);
}

TEST(MaxMinSolver, CrossTrafficOnSplitDuplexLink)
{
  // a goes up (coefficient 1 on up, 0.05 on down), b goes down (the reverse). C = 10 each way.
  //   up: x_a + 0.05 x_b = 10, down: x_b + 0.05 x_a = 10  =>  x_a = x_b = 10 / 1.05, bit for bit.
  MaxMinSolver solver;
  CnstId up = solver.add_constraint(10, Sharing::Shared);
  CnstId down = solver.add_constraint(10, Sharing::Shared);
  VarId a = solver.add_variable(1, kUnbounded);
  VarId b = solver.add_variable(1, kUnbounded);
  solver.expand(up, a, 1);
  solver.expand(down, a, 0.05);
  solver.expand(down, b, 1);
  solver.expand(up, b, 0.05);
  solver.solve();
  expect_share(solver.value(a), 10 / 1.05);
  EXPECT_EQ(solver.value(a), solver.value(b));
}

TEST(MaxMinSolver, NearlyEqualLevelsSaturateTogether)
{
  // c1 (C = 0.3) carries f1, f2, f3; c2 (C = 0.2) carries f3, f4. Both saturate at λ = 0.1 in exact arithmetic,
  // but 0.3/3 and 0.2/2 differ by one ulp in doubles. The tie window makes all four flows bit-identical.
  MaxMinSolver solver;
  CnstId c1 = solver.add_constraint(0.3, Sharing::Shared);
  CnstId c2 = solver.add_constraint(0.2, Sharing::Shared);
  std::vector<VarId> flows;
  for (int i = 0; i < 4; ++i)
    flows.push_back(solver.add_variable(1, kUnbounded));
  for (int i : {0, 1, 2})
    solver.expand(c1, flows[i], 1);
  for (int i : {2, 3})
    solver.expand(c2, flows[i], 1);
  solver.solve();
  ASSERT_NE(0.3 / 3, 0.2 / 2); // the premise of this test
  expect_share(solver.value(flows[0]), 0.1);
  for (VarId flow : flows)
    EXPECT_EQ(solver.value(flow), solver.value(flows[0]));
}

TEST(MaxMinSolver, DegenerateCases)
{
  // Capacity 0: its flow gets 0. No constraint, no bound: 0 (not infinity). No constraint, bound 4: 4.
  // Only a coefficient 0: consumes nothing, so unconstrained: 0. Bound 0: 0.
  MaxMinSolver solver;
  CnstId closed = solver.add_constraint(0, Sharing::Shared);
  CnstId open = solver.add_constraint(10, Sharing::Shared);
  VarId through_closed = solver.add_variable(1, kUnbounded);
  VarId nowhere = solver.add_variable(1, kUnbounded);
  VarId nowhere_bounded = solver.add_variable(1, 4);
  VarId weightless = solver.add_variable(1, kUnbounded);
  VarId zero_bound = solver.add_variable(1, 0);
  solver.expand(closed, through_closed, 1);
  solver.expand(open, weightless, 0);
  solver.expand(open, zero_bound, 1);
  solver.solve();
  EXPECT_EQ(solver.value(through_closed), 0);
  EXPECT_EQ(solver.value(nowhere), 0);
  EXPECT_EQ(solver.value(nowhere_bounded), 4);
  EXPECT_EQ(solver.value(weightless), 0);
  EXPECT_EQ(solver.value(zero_bound), 0);

  // Opening the closed link: 10.
  solver.set_capacity(closed, 10);
  EXPECT_EQ(solver.capacity(closed), 10);
  solver.solve();
  expect_share(solver.value(through_closed), 10);
  EXPECT_EQ(solver.modified(), ids({through_closed}));
}

TEST(MaxMinSolver, DisabledVariableThenEnabled)
{
  // While b pays its latency (penalty 0) it gets 0 and a has the whole link: a = 10.
  // Enabled with penalty 1: a = b = 5.
  MaxMinSolver solver;
  CnstId link = solver.add_constraint(10, Sharing::Shared);
  VarId a = solver.add_variable(1, kUnbounded);
  VarId b = solver.add_variable(0, kUnbounded);
  solver.expand(link, a, 1);
  solver.expand(link, b, 1);
  solver.solve();
  expect_share(solver.value(a), 10);
  EXPECT_EQ(solver.value(b), 0);

  solver.set_penalty(b, 1);
  solver.solve();
  expect_share(solver.value(a), 5);
  expect_share(solver.value(b), 5);
  EXPECT_EQ(solver.modified(), ids({a, b}));

  // Disabled again: back to 10 and 0.
  solver.set_penalty(b, 0);
  solver.solve();
  expect_share(solver.value(a), 10);
  EXPECT_EQ(solver.value(b), 0);
  EXPECT_EQ(solver.modified(), ids({a, b}));
}

TEST(MaxMinSolver, RemovedIdsAreReused)
{
  // a and b share L1 (5 each). Removing a gives b 10. The next variable reuses a's id, on L2 alone: 20.
  MaxMinSolver solver;
  CnstId l1 = solver.add_constraint(10, Sharing::Shared);
  CnstId l2 = solver.add_constraint(20, Sharing::Shared);
  VarId a = solver.add_variable(1, kUnbounded);
  VarId b = solver.add_variable(1, kUnbounded);
  solver.expand(l1, a, 1);
  solver.expand(l1, b, 1);
  solver.solve();
  expect_share(solver.value(b), 5);

  solver.remove_variable(a);
  EXPECT_EQ(solver.variable_count(), 1u);
  EXPECT_THROW(solver.value(a), std::invalid_argument);
  solver.solve();
  expect_share(solver.value(b), 10);
  EXPECT_EQ(solver.modified(), ids({b})); // the removed variable is not reported

  VarId c = solver.add_variable(1, kUnbounded);
  EXPECT_EQ(c, a);
  solver.expand(l2, c, 1);
  solver.solve();
  expect_share(solver.value(c), 20);
  expect_share(solver.value(b), 10);
  EXPECT_EQ(solver.modified(), ids({c})); // its predecessor's link L1 is not involved any more
}

TEST(MaxMinSolver, IncrementalSolveOnlyReportsTouchedComponents)
{
  // Two independent links, L1 with a and b (5 each), L2 with c (20).
  MaxMinSolver solver;
  CnstId l1 = solver.add_constraint(10, Sharing::Shared);
  CnstId l2 = solver.add_constraint(20, Sharing::Shared);
  VarId a = solver.add_variable(1, kUnbounded);
  VarId b = solver.add_variable(1, kUnbounded);
  VarId c = solver.add_variable(1, kUnbounded);
  solver.expand(l1, a, 1);
  solver.expand(l1, b, 1);
  solver.expand(l2, c, 1);
  solver.solve();
  EXPECT_EQ(solver.modified(), ids({a, b, c}));

  // Bounding c touches L2's component only: c = 7, a and b untouched.
  solver.set_bound(c, 7);
  solver.solve();
  EXPECT_EQ(solver.modified(), ids({c}));
  expect_share(solver.value(c), 7);
  expect_share(solver.value(a), 5);

  // A new flow d on L1: a = b = d = 10/3; c is not reported.
  VarId d = solver.add_variable(1, kUnbounded);
  solver.expand(l1, d, 1);
  solver.solve();
  EXPECT_EQ(solver.modified(), ids({a, b, d}));
  expect_share(solver.value(d), 10.0 / 3);

  // Nothing touched: nothing recomputed. Setting a parameter to its current value touches nothing either.
  solver.set_capacity(l2, 20);
  solver.set_penalty(a, 1);
  solver.solve();
  EXPECT_TRUE(solver.modified().empty());

  // A flow bridging both links merges the components: everything is recomputed.
  // L1: a + b + d + e = 10 saturates at 2.5 first; L2 then holds c = 7 (bound) and e = 2.5.
  VarId e = solver.add_variable(1, kUnbounded);
  solver.expand(l1, e, 1);
  solver.expand(l2, e, 1);
  solver.solve();
  EXPECT_EQ(solver.modified(), ids({a, b, c, d, e}));
  expect_share(solver.value(e), 2.5);
  expect_share(solver.value(c), 7);
}

TEST(MaxMinSolver, MisuseIsReported)
{
  MaxMinSolver solver;
  CnstId link = solver.add_constraint(10, Sharing::Shared);
  VarId flow = solver.add_variable(1, kUnbounded);
  EXPECT_THROW(solver.add_constraint(-1, Sharing::Shared), std::invalid_argument);
  EXPECT_THROW(solver.add_variable(-1, kUnbounded), std::invalid_argument);
  EXPECT_THROW(solver.expand(link + 1, flow, 1), std::invalid_argument);
  EXPECT_THROW(solver.expand(link, flow + 1, 1), std::invalid_argument);
  EXPECT_THROW(solver.set_penalty(flow, std::nan("")), std::invalid_argument);
  try {
    solver.expand(link, flow, -2);
    FAIL() << "negative coefficient accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "MaxMinSolver::expand: coefficient = -2, expected a finite value >= 0");
  }
  try {
    solver.remove_variable(7);
    FAIL() << "unknown variable accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "MaxMinSolver::remove_variable: no live variable 7");
  }
}

// ---- Randomized comparison with the reference solver -----------------------------------------------------------

// Draws system parameters. Half the systems use small sets of round values, which produce many exact ties (the
// delicate case for the tie rule); the other half use continuous values.
class RandomSystemMaker {
public:
  explicit RandomSystemMaker(unsigned seed) : random_(seed) { round_values_ = chance(0.5); }

  bool chance(double probability) { return std::bernoulli_distribution(probability)(random_); }
  size_t index_below(size_t count) { return std::uniform_int_distribution<size_t>(0, count - 1)(random_); }

  double capacity()
  {
    if (chance(0.03))
      return 0;
    return round_values_ ? pick({1, 2, 5, 10, 100}) : uniform(0.1, 100);
  }
  Sharing sharing() { return chance(0.25) ? Sharing::Fatpipe : Sharing::Shared; }
  double penalty()
  {
    if (chance(0.1))
      return 0;
    return round_values_ ? pick({1, 2, 0.5, 3}) : uniform(0.1, 10);
  }
  double bound()
  {
    if (!chance(0.3))
      return kUnbounded;
    return round_values_ ? pick({0, 1, 2.5, 5}) : uniform(0.01, 50);
  }
  double coefficient()
  {
    if (chance(0.03))
      return 0;
    return round_values_ ? pick({1, 0.5, 0.05, 2}) : uniform(0.05, 2);
  }

private:
  double pick(std::initializer_list<double> values) { return *(values.begin() + index_below(values.size())); }
  double uniform(double low, double high) { return std::uniform_real_distribution<double>(low, high)(random_); }

  std::mt19937 random_;
  bool round_values_;
};

// Drives a MaxMinSolver and remembers what it was told, to rebuild the same system in a ReferenceMaxMin.
class MirroredSystem {
public:
  explicit MirroredSystem(RandomSystemMaker& maker, Marking marking = Marking::Components) : maker_(maker)
  {
    solver_.set_marking(marking);
  }

  void add_constraint()
  {
    double capacity = maker_.capacity();
    Sharing sharing = maker_.sharing();
    constraints_.push_back({solver_.add_constraint(capacity, sharing), capacity, sharing});
  }

  void add_variable()
  {
    double penalty = maker_.penalty();
    double bound = maker_.bound();
    VarId v = solver_.add_variable(penalty, bound);
    ASSERT_EQ(variables_.count(v), 0u);
    variables_[v] = {penalty, bound, {}};
    touched_.insert(v);
    size_t use_count = maker_.chance(0.05) ? 0 : 1 + maker_.index_below(4);
    for (size_t i = 0; i < use_count; ++i)
      expand_randomly(v);
  }

  void expand_randomly(VarId v)
  {
    auto c = static_cast<CnstId>(maker_.index_below(constraints_.size()));
    double coefficient = maker_.coefficient();
    solver_.expand(c, v, coefficient);
    variables_[v].uses.emplace_back(c, coefficient);
    touched_.insert(v);
  }

  // One random change of the kinds a network model makes between two solves.
  void change_randomly()
  {
    size_t kind = maker_.index_below(7);
    if (kind == 0 || variables_.empty()) {
      add_variable();
      return;
    }
    VarId v = random_variable();
    switch (kind) {
    case 1:
      solver_.remove_variable(v);
      variables_.erase(v);
      touched_.erase(v);
      break;
    case 2: { // setting a parameter to its current value touches nothing
      double penalty = maker_.penalty();
      if (penalty != variables_[v].penalty)
        touched_.insert(v);
      variables_[v].penalty = penalty;
      solver_.set_penalty(v, penalty);
      break;
    }
    case 3: {
      double bound = maker_.bound();
      if (bound != variables_[v].bound)
        touched_.insert(v);
      variables_[v].bound = bound;
      solver_.set_bound(v, bound);
      break;
    }
    case 4: expand_randomly(v); break;
    default: {
      size_t c = maker_.index_below(constraints_.size());
      double capacity = maker_.capacity();
      if (capacity != constraints_[c].capacity)
        for (const auto& [id, var] : variables_)
          for (const auto& use : var.uses)
            if (use.first == constraints_[c].id && var.penalty > 0)
              touched_.insert(id);
      constraints_[c].capacity = capacity;
      solver_.set_capacity(constraints_[c].id, capacity);
      break;
    }
    }
  }

  // Solves, checks modified() against what was touched and what changed, then every value against the reference.
  void solve_and_compare(const std::string& context)
  {
    std::map<VarId, double> before;
    for (const auto& [id, var] : variables_)
      before[id] = solver_.value(id);
    solver_.solve();
    check_modified(before, context);
    touched_.clear();

    ReferenceMaxMin reference;
    for (const MirroredConstraint& cnst : constraints_)
      reference.add_constraint(cnst.capacity, cnst.sharing);
    std::map<VarId, size_t> reference_index;
    for (const auto& [id, var] : variables_) {
      reference_index[id] = reference.add_variable(var.penalty, var.bound);
      for (const auto& [c, coefficient] : var.uses)
        reference.expand(c, reference_index[id], coefficient);
    }
    reference.solve();
    for (const auto& [id, var] : variables_) {
      double expected = reference.value(reference_index[id]);
      double actual = solver_.value(id);
      ASSERT_LE(std::abs(actual - expected), 1e-9 * std::max(std::abs(actual), std::abs(expected)) + 1e-300)
          << context << ": variable " << id << " is " << actual << ", the reference says " << expected;
    }
  }

  size_t variable_count() const { return variables_.size(); }

private:
  struct MirroredConstraint {
    CnstId id;
    double capacity;
    Sharing sharing;
  };
  struct MirroredVariable {
    double penalty;
    double bound;
    std::vector<std::pair<CnstId, double>> uses;
  };

  VarId random_variable()
  {
    auto it = variables_.begin();
    std::advance(it, maker_.index_below(variables_.size()));
    return it->first;
  }

  void check_modified(const std::map<VarId, double>& before, const std::string& context)
  {
    const std::vector<VarId>& modified = solver_.modified();
    ASSERT_TRUE(std::is_sorted(modified.begin(), modified.end())) << context;
    ASSERT_TRUE(std::adjacent_find(modified.begin(), modified.end()) == modified.end()) << context;
    std::set<VarId> reported(modified.begin(), modified.end());
    for (VarId v : reported)
      ASSERT_TRUE(variables_.count(v)) << context << ": removed variable " << v << " reported";
    for (VarId v : touched_)
      ASSERT_TRUE(reported.count(v)) << context << ": touched variable " << v << " not reported";
    for (const auto& [id, value] : before) {
      bool changed = solver_.value(id) != value;
      ASSERT_TRUE(!changed || reported.count(id)) << context << ": variable " << id << " changed, not reported";
    }
  }

  RandomSystemMaker& maker_;
  MaxMinSolver solver_;
  std::vector<MirroredConstraint> constraints_;
  std::map<VarId, MirroredVariable> variables_;
  std::set<VarId> touched_; // live variables whose value the next solve must recompute
};

TEST(MaxMinSolver, MatchesReferenceOnRandomSystems)
{
  constexpr int kSystems = 500;
  for (int system = 0; system < kSystems; ++system) {
    RandomSystemMaker maker(static_cast<unsigned>(system));
    MirroredSystem mirrored(maker);
    size_t constraint_count = 1 + maker.index_below(50);
    size_t variable_count = 1 + maker.index_below(200);
    for (size_t c = 0; c < constraint_count; ++c)
      mirrored.add_constraint();
    for (size_t v = 0; v < variable_count; ++v)
      mirrored.add_variable();
    std::string context = "system " + std::to_string(system);
    ASSERT_NO_FATAL_FAILURE(mirrored.solve_and_compare(context + ", initial solve"));

    // Incremental sequences: a few changes between solves, as flows start, end and leave their latency phase.
    for (int step = 0; step < 6; ++step) {
      size_t change_count = 1 + maker.index_below(5);
      for (size_t i = 0; i < change_count; ++i)
        mirrored.change_randomly();
      ASSERT_NO_FATAL_FAILURE(mirrored.solve_and_compare(context + ", step " + std::to_string(step)));
    }
  }
}

// One change per solve leaves SimGrid's lazy marking nothing to miss: its walk from the changed constraint (or the
// changed variable's first one) reaches the whole component, so the values are the reference's.
TEST(MaxMinSolver, LazyMarkingWithOneChangePerSolveMatchesReference)
{
  constexpr int kSystems = 200;
  for (int system = 0; system < kSystems; ++system) {
    RandomSystemMaker maker(static_cast<unsigned>(system));
    MirroredSystem mirrored(maker, Marking::SimGridLazy);
    size_t constraint_count = 1 + maker.index_below(30);
    size_t variable_count = 1 + maker.index_below(100);
    for (size_t c = 0; c < constraint_count; ++c)
      mirrored.add_constraint();
    for (size_t v = 0; v < variable_count; ++v)
      mirrored.add_variable();
    std::string context = "lazy system " + std::to_string(system);
    ASSERT_NO_FATAL_FAILURE(mirrored.solve_and_compare(context + ", initial solve"));
    for (int step = 0; step < 10; ++step) {
      mirrored.change_randomly();
      ASSERT_NO_FATAL_FAILURE(mirrored.solve_and_compare(context + ", step " + std::to_string(step)));
    }
  }
}

// The smallest case of docs/models.md: hosts 3 to 6 on one switch, each with an up (u) and a down (d) link of
// capacity 21; a flow uses its route at 1 and the reverse route at 0.05 (acknowledgements), route first. Flow C
// (5 -> 6) runs alone at 21. A (3 -> 4) and B (4 -> 5) are created disabled (latency), then enabled in one round.
struct NeighbourFlows {
  explicit NeighbourFlows(Marking marking)
  {
    solver.set_marking(marking);
    for (int host = 3; host <= 6; ++host) {
      up[host] = solver.add_constraint(21, Sharing::Shared);
      down[host] = solver.add_constraint(21, Sharing::Shared);
    }
    c = flow(5, 6, 1);
    solver.solve();
    a = flow(3, 4, 0);
    b = flow(4, 5, 0);
    solver.solve();
  }
  VarId flow(int src, int dst, double penalty)
  {
    VarId v = solver.add_variable(penalty, kUnbounded);
    solver.expand(up[src], v, 1);
    solver.expand(down[dst], v, 1);
    solver.expand(up[dst], v, 0.05);
    solver.expand(down[src], v, 0.05);
    return v;
  }
  MaxMinSolver solver;
  std::map<int, CnstId> up, down;
  VarId a = 0, b = 0, c = 0;
};

TEST(MaxMinSolver, LazyMarkingDoesNotFollowAVariableEnabledOnAnAlreadyMarkedConstraint)
{
  // Physically, B's acknowledgements share u5 with C: C + 0.05 B <= 21 and B + 0.05 C <= 21 give B = C = 20.
  NeighbourFlows whole(Marking::Components);
  whole.solver.set_penalty(whole.a, 1);
  whole.solver.set_penalty(whole.b, 1);
  whole.solver.solve();
  expect_share(whole.solver.value(whole.c), 20);

  // Lazily, A's walk marks u3, d4, u4, d3 (B is still disabled, so it stops there). B's first constraint, u4, is
  // then already marked: B is not followed, u5 and d5 stay unmarked, B is re-shared against A's links only
  // (A + 0.05 B <= 21 on d4, B + 0.05 A <= 21 on u4: 20 each) and C keeps 21 without being recomputed; u5 carries
  // 21 + 0.05 x 20 = 22.
  NeighbourFlows lazy(Marking::SimGridLazy);
  lazy.solver.track_constraints(true);
  lazy.solver.set_penalty(lazy.a, 1);
  lazy.solver.set_penalty(lazy.b, 1);
  lazy.solver.solve();
  EXPECT_EQ(lazy.solver.modified(), ids({lazy.a, lazy.b}));
  // Link observers hear of u5 and d5 as well, whose consumption B's new value changed.
  std::set<CnstId> reported(lazy.solver.solved_constraints().begin(), lazy.solver.solved_constraints().end());
  EXPECT_EQ(reported, (std::set<CnstId>{lazy.up[3], lazy.down[3], lazy.up[4], lazy.down[4], lazy.up[5], lazy.down[5]}));
  expect_share(lazy.solver.value(lazy.a), 20);
  expect_share(lazy.solver.value(lazy.b), 20);
  expect_share(lazy.solver.value(lazy.c), 21);
  expect_share(lazy.solver.consumption(lazy.up[5]), 22);

  // The next change that reaches u5 (here a flow created on u6, whose walk crosses C) re-shares everything.
  lazy.flow(6, 3, 0);
  lazy.solver.solve();
  expect_share(lazy.solver.value(lazy.c), 20);
}

TEST(MaxMinSolver, LazyMarkingFollowsBothVariablesInTheOtherOrder)
{
  // B first: its walk from u4 reaches d5, u5 and C; A's first constraint u3 is unmarked, its walk adds u3 and d3.
  NeighbourFlows lazy(Marking::SimGridLazy);
  lazy.solver.set_penalty(lazy.b, 1);
  lazy.solver.set_penalty(lazy.a, 1);
  lazy.solver.solve();
  EXPECT_EQ(lazy.solver.modified(), ids({lazy.c, lazy.a, lazy.b}));
  expect_share(lazy.solver.value(lazy.c), 20);
}

TEST(MaxMinSolver, LazyMarkingListsChangesInSimGridsOrder)
{
  // r on c3; then q on c2 and c3; then p on c1 and c2, each enabled at once. The expansions mark c3 (r's), c2
  // (q's; q's walk finds nothing else unmarked), c1 (p's). SimGrid lists the changed actions constraint by constraint
  // in marking order, each constraint's users most recently enabled first: c3 gives q then r, c2 p, c1 nothing new.
  MaxMinSolver solver;
  solver.set_marking(Marking::SimGridLazy);
  const CnstId c1 = solver.add_constraint(10, Sharing::Shared), c2 = solver.add_constraint(10, Sharing::Shared),
               c3 = solver.add_constraint(10, Sharing::Shared);
  const VarId r = solver.add_variable(1, kUnbounded);
  solver.expand(c3, r, 1);
  const VarId q = solver.add_variable(1, kUnbounded);
  solver.expand(c2, q, 1);
  solver.expand(c3, q, 1);
  const VarId p = solver.add_variable(1, kUnbounded);
  solver.expand(c1, p, 1);
  solver.expand(c2, p, 1);
  solver.solve();
  EXPECT_EQ(solver.modified(), ids({r, q, p}));
  EXPECT_EQ(solver.modified_in_simgrid_order(), ids({q, r, p}));

  // A change of r marks from c3 and walks depth first: c3's users newest first, q (whose next constraint c2 is
  // marked and walked: p, whose c1 is marked), then r. Marking order c3, c2, c1: q, r, then p.
  solver.set_penalty(r, 2);
  solver.solve();
  EXPECT_EQ(solver.modified_in_simgrid_order(), ids({q, r, p}));
}

TEST(MaxMinSolver, LazyMarkingResumesAVariableWalkedByNestedFrames)
{
  // x crosses c1..c4 (expanded in that order); y joins c3 after x and also uses c5; v is alone on c5, w on c4. A change
  // of x walks from c1: x leads to c2, where x is walked again (its uses c1 and c2 are passed: the walk resumes at c3),
  // then c3, whose newest user y leads to c5 (v, then y visited); back in c3, x goes on to c4 (w, then x visited).
  // Marking order c1, c2, c3, c5, c4, so the changes come as x, y, v, w (w after v: c4 is marked after c5).
  MaxMinSolver solver;
  solver.set_marking(Marking::SimGridLazy);
  std::vector<CnstId> c;
  for (int i = 0; i < 5; ++i)
    c.push_back(solver.add_constraint(10, Sharing::Shared));
  const VarId x = solver.add_variable(1, kUnbounded);
  for (int i = 0; i < 4; ++i)
    solver.expand(c[i], x, 1);
  const VarId y = solver.add_variable(1, kUnbounded);
  solver.expand(c[2], y, 1);
  solver.expand(c[4], y, 1);
  const VarId v = solver.add_variable(1, kUnbounded);
  solver.expand(c[4], v, 1);
  const VarId w = solver.add_variable(1, kUnbounded);
  solver.expand(c[3], w, 1);
  solver.solve();
  solver.set_penalty(x, 2);
  solver.solve();
  EXPECT_EQ(solver.modified_in_simgrid_order(), ids({x, y, v, w}));
}

TEST(MaxMinSolver, LazyMarkingListsUsersNewestFirstAfterManyLeave)
{
  // 40 flows join one link in order; 28 leave (the users' list is reordered by swaps, and the holes in the list by
  // age are squeezed out once they outnumber the users), one leaves and joins again. SimGrid's order is still the
  // order of joining, latest first: v35 (joined again), then v39 ... v30, v17, v3.
  MaxMinSolver solver;
  solver.set_marking(Marking::SimGridLazy);
  const CnstId link = solver.add_constraint(100, Sharing::Shared);
  std::vector<VarId> v;
  for (int i = 0; i < 40; ++i) {
    v.push_back(solver.add_variable(1, kUnbounded));
    solver.expand(link, v.back(), 1);
  }
  solver.solve();
  for (int i = 0; i < 30; ++i)
    if (i != 3 && i != 17)
      solver.remove_variable(v[i]);
  solver.set_penalty(v[35], 0);
  solver.set_penalty(v[35], 1);
  solver.solve();
  solver.set_penalty(v[17], 2);
  solver.solve();
  std::vector<VarId> expected = {v[35], v[39], v[38], v[37], v[36]};
  for (int i = 34; i >= 30; --i)
    expected.push_back(v[i]);
  expected.push_back(v[17]);
  expected.push_back(v[3]);
  EXPECT_EQ(solver.modified_in_simgrid_order(), expected);
}

// Two lazy solvers given the same random flows, one tracking constraints (which keeps the component search), one not
// (which takes the component from the marking walk when that walk is the only one since the last solve and no user
// joined or left after it): the same values, bit for bit, and the same lists of changes, in both orders. Removals and
// disablings (a walk, then users leaving: the component may split) and enablings after a walk must fall back.
TEST(MaxMinSolver, LazyWalkedComponentsSolveAsTheSearchDoes)
{
  std::mt19937 random(15);
  auto below = [&random](size_t n) { return static_cast<size_t>(random() % n); };
  MaxMinSolver searched;
  MaxMinSolver walked;
  searched.set_marking(Marking::SimGridLazy);
  walked.set_marking(Marking::SimGridLazy);
  searched.track_constraints(true);
  std::vector<CnstId> links;
  for (int link = 0; link < 24; ++link) {
    const double capacity = 10 + static_cast<double>(below(5));
    const Sharing sharing = link % 7 == 0 ? Sharing::Fatpipe : Sharing::Shared;
    links.push_back(searched.add_constraint(capacity, sharing));
    walked.add_constraint(capacity, sharing);
  }
  std::vector<VarId> flows;
  auto both = [&](auto&& change) {
    change(searched);
    change(walked);
  };
  for (int round = 0; round < 3000; ++round) {
    for (size_t change = 1 + below(2); change > 0; --change) {
      const size_t what = below(10);
      if (what < 4 || flows.empty()) { // a flow starts, disabled (its latency) or not
        const double penalty = below(3) == 0 ? 0 : 1 + static_cast<double>(below(3));
        const double bound = below(2) == 0 ? kUnbounded : 2 + static_cast<double>(below(8));
        const VarId v = searched.add_variable(penalty, bound);
        ASSERT_EQ(walked.add_variable(penalty, bound), v);
        for (size_t hop = 1 + below(4); hop > 0; --hop) {
          const CnstId link = links[below(links.size())];
          const double coefficient = below(4) == 0 ? 0.05 : 1;
          both([&](MaxMinSolver& solver) { solver.expand(link, v, coefficient); });
        }
        flows.push_back(v);
      } else if (what < 7) { // a flow ends
        const size_t index = below(flows.size());
        both([&](MaxMinSolver& solver) { solver.remove_variable(flows[index]); });
        flows.erase(flows.begin() + static_cast<std::ptrdiff_t>(index));
      } else if (what < 9) { // a flow leaves or enters its latency, or changes weight
        const VarId v = flows[below(flows.size())];
        const double penalty = static_cast<double>(below(3));
        both([&](MaxMinSolver& solver) { solver.set_penalty(v, penalty); });
      } else { // a link's capacity changes
        const CnstId link = links[below(links.size())];
        const double capacity = 8 + static_cast<double>(below(8));
        both([&](MaxMinSolver& solver) { solver.set_capacity(link, capacity); });
      }
    }
    searched.solve();
    walked.solve();
    ASSERT_EQ(walked.modified(), searched.modified()) << "round " << round;
    ASSERT_EQ(walked.modified_in_simgrid_order(), searched.modified_in_simgrid_order()) << "round " << round;
    for (VarId v : walked.modified())
      ASSERT_EQ(std::bit_cast<uint64_t>(walked.value(v)), std::bit_cast<uint64_t>(searched.value(v)))
          << "round " << round << ", variable " << v;
  }
  EXPECT_EQ(searched.walked_component_reuses(), 0U);
  EXPECT_GT(walked.walked_component_reuses(), 500U);
  EXPECT_LT(walked.walked_component_reuses(), 2500U); // the rounds with two walks, or a departure after one, search
}

// Two links whose levels differ by less than the tie window, each with its own flow: two components, each at its
// own level. A round that marks both (two walks) must solve them apart, not as the walks' one list.
TEST(MaxMinSolver, LazyMarkingSolvesTwoWalkedComponentsApart)
{
  MaxMinSolver solver;
  solver.set_marking(Marking::SimGridLazy);
  const double nearly_one = 1 + 1e-12;
  CnstId first = solver.add_constraint(1, Sharing::Shared);
  CnstId second = solver.add_constraint(nearly_one, Sharing::Shared);
  VarId a = solver.add_variable(1, kUnbounded);
  solver.expand(first, a, 1);
  VarId b = solver.add_variable(1, kUnbounded);
  solver.expand(second, b, 1);
  solver.solve();
  EXPECT_EQ(solver.value(a), 1.0);
  EXPECT_EQ(solver.value(b), nearly_one);
  EXPECT_EQ(solver.walked_component_reuses(), 0U);
  // One walk: its list is the component. Then both again, in one round.
  solver.set_capacity(first, 2);
  solver.solve();
  EXPECT_EQ(solver.value(a), 2.0);
  EXPECT_EQ(solver.modified(), ids({a}));
  EXPECT_EQ(solver.walked_component_reuses(), 1U);
  solver.set_capacity(first, 1);
  solver.set_capacity(second, 1 + 2e-12);
  solver.solve();
  EXPECT_EQ(solver.value(a), 1.0);
  EXPECT_EQ(solver.value(b), 1 + 2e-12);
  EXPECT_EQ(solver.walked_component_reuses(), 1U);
}

TEST(MaxMinSolver, MarkingIsChosenBeforeChanges)
{
  MaxMinSolver solver;
  solver.add_constraint(1, Sharing::Shared);
  solver.add_variable(1, kUnbounded);
  EXPECT_THROW(solver.set_marking(Marking::SimGridLazy), std::invalid_argument);
}

} // namespace
} // namespace mpisim::solver

namespace {

// A flow crossing one fatpipe link forward (coefficient 1) and back (cross-traffic 0.05), e.g. a loopback: on a
// fatpipe the two uses count once at the larger coefficient, so the flow gets the full capacity C = 100; on a shared
// link they add: x * (1 + 0.05) = 100 -> x = 95.238095...
TEST(MaxMinSolver, RepeatedUseOfAFatpipeCountsOnceAtTheLargerCoefficient)
{
  using namespace mpisim::solver;
  MaxMinSolver solver;
  CnstId fatpipe = solver.add_constraint(100, Sharing::Fatpipe);
  CnstId shared = solver.add_constraint(100, Sharing::Shared);
  VarId a = solver.add_variable(1, -1);
  solver.expand(fatpipe, a, 1.0);
  solver.expand(fatpipe, a, 0.05);
  VarId b = solver.add_variable(1, -1);
  solver.expand(shared, b, 1.0);
  solver.expand(shared, b, 0.05);
  solver.solve();
  EXPECT_DOUBLE_EQ(solver.value(a), 100.0);
  EXPECT_DOUBLE_EQ(solver.value(b), 100.0 / 1.05);
}

} // namespace
