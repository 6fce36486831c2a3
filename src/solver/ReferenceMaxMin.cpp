// The reference max-min solver: progressive filling written for clarity, not speed (cubic time is fine).
#include "solver/ReferenceMaxMin.hpp"

#include <algorithm>
#include <limits>

namespace mpisim::solver {
namespace {
constexpr size_t kNoLabel = std::numeric_limits<size_t>::max();
constexpr double kInfinity = std::numeric_limits<double>::infinity();
} // namespace

size_t ReferenceMaxMin::add_constraint(double capacity, Sharing sharing)
{
  constraints_.push_back({capacity, sharing});
  return constraints_.size() - 1;
}

size_t ReferenceMaxMin::add_variable(double penalty, double bound)
{
  variables_.push_back({penalty, bound});
  return variables_.size() - 1;
}

void ReferenceMaxMin::expand(size_t constraint, size_t variable, double coefficient)
{
  elements_.push_back({constraint, variable, coefficient});
}

void ReferenceMaxMin::solve()
{
  build_matrix();
  label_components();
  for (Variable& var : variables_)
    var.value = 0;
  // Components are independent problems; ties are only decided inside one.
  for (size_t v = 0; v < variables_.size(); ++v)
    if (variables_[v].enabled() && variable_label_[v] == v)
      fill_component(v);
}

void ReferenceMaxMin::build_matrix()
{
  coefficient_.assign(constraints_.size(), std::vector<double>(variables_.size(), 0.0));
  linked_.assign(constraints_.size(), std::vector<bool>(variables_.size(), false));
  for (const Element& element : elements_) {
    double& coefficient = coefficient_[element.constraint][element.variable];
    // Repeated uses add up on a shared constraint; a fatpipe keeps the larger one.
    const bool fatpipe = constraints_[element.constraint].sharing == Sharing::Fatpipe;
    coefficient = fatpipe ? std::max(coefficient, element.coefficient) : coefficient + element.coefficient;
    linked_[element.constraint][element.variable] = true;
  }
}

// Each enabled variable starts with its own index as label; labels flow through linked pairs, keeping the
// smallest, until nothing changes. A component is then named by its smallest variable index.
void ReferenceMaxMin::label_components()
{
  variable_label_.assign(variables_.size(), kNoLabel);
  constraint_label_.assign(constraints_.size(), kNoLabel);
  for (size_t v = 0; v < variables_.size(); ++v)
    if (variables_[v].enabled())
      variable_label_[v] = v;
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t c = 0; c < constraints_.size(); ++c) {
      for (size_t v = 0; v < variables_.size(); ++v) {
        if (!linked_[c][v] || !variables_[v].enabled())
          continue;
        size_t smallest = std::min(variable_label_[v], constraint_label_[c]);
        if (variable_label_[v] != smallest || constraint_label_[c] != smallest) {
          variable_label_[v] = constraint_label_[c] = smallest;
          changed = true;
        }
      }
    }
  }
}

void ReferenceMaxMin::fill_component(size_t label)
{
  std::vector<size_t> members;     // variables of the component
  std::vector<size_t> constraints; // constraints of the component
  for (size_t v = 0; v < variables_.size(); ++v)
    if (variable_label_[v] == label)
      members.push_back(v);
  for (size_t c = 0; c < constraints_.size(); ++c)
    if (constraint_label_[c] == label)
      constraints.push_back(c);

  // A variable is free while its value is undecided. A variable neither bounded nor using any constraint with a
  // positive coefficient is never free: it keeps value 0.
  std::vector<bool> free(variables_.size(), false);
  for (size_t v : members) {
    bool constrained = false;
    for (size_t c : constraints)
      constrained = constrained || coefficient_[c][v] > 0;
    free[v] = constrained || variables_[v].bounded();
  }

  double level = 0;
  while (std::find(free.begin(), free.end(), true) != free.end()) {
    // The lowest level at which some constraint saturates or some bound is reached.
    std::vector<double> constraint_level(constraints_.size(), kInfinity);
    double lowest = kInfinity;
    for (size_t c : constraints) {
      constraint_level[c] = saturation_level(c, members, free);
      lowest = std::min(lowest, constraint_level[c]);
    }
    for (size_t v : members)
      if (free[v] && variables_[v].bounded())
        lowest = std::min(lowest, variables_[v].bound * variables_[v].penalty);

    // Levels never go down; everything within the tie window of the lowest one saturates with it.
    level = std::max(level, lowest);
    double threshold = level * (1 + MaxMinSolver::kRelativePrecision);
    std::vector<size_t> saturating_bounds;
    std::vector<size_t> saturating_constraints;
    for (size_t v : members)
      if (free[v] && variables_[v].bounded() && variables_[v].bound * variables_[v].penalty <= threshold)
        saturating_bounds.push_back(v);
    for (size_t c : constraints)
      if (constraint_level[c] <= threshold)
        saturating_constraints.push_back(c);

    // Bounds first, so that a bound tying with a constraint is met exactly.
    for (size_t v : saturating_bounds) {
      variables_[v].value = variables_[v].bound;
      free[v] = false;
    }
    for (size_t c : saturating_constraints) {
      for (size_t v : members) {
        if (free[v] && coefficient_[c][v] > 0) {
          variables_[v].value = level / variables_[v].penalty;
          free[v] = false;
        }
      }
    }
  }
}

// The level at which constraint c saturates if all its free variables rise together; infinity if it has none.
double ReferenceMaxMin::saturation_level(size_t c, const std::vector<size_t>& members,
                                         const std::vector<bool>& free) const
{
  double consumed_by_fixed = 0;
  double usage = 0; // Shared: sum of coefficient/penalty over free variables; Fatpipe: max
  bool has_free_variable = false;
  for (size_t v : members) {
    double coefficient = coefficient_[c][v];
    if (coefficient <= 0)
      continue;
    if (!free[v]) {
      consumed_by_fixed += coefficient * variables_[v].value;
      continue;
    }
    has_free_variable = true;
    double weight = coefficient / variables_[v].penalty;
    usage = constraints_[c].sharing == Sharing::Shared ? usage + weight : std::max(usage, weight);
  }
  if (!has_free_variable)
    return kInfinity;
  if (constraints_[c].sharing == Sharing::Fatpipe)
    return constraints_[c].capacity / usage;
  return (constraints_[c].capacity - consumed_by_fixed) / usage;
}

} // namespace mpisim::solver
