// A slow, obviously correct weighted max-min solver, the yardstick for MaxMinSolver in the tests.
//
// Same allocation and tie rule as MaxMinSolver (see MaxMinSolver.hpp), computed the plain way: dense coefficient
// matrix, connected components found by relaxation, and progressive filling that recomputes every constraint's
// saturation level from scratch at each step. No incremental update, no removal: build a fresh one per check.
#pragma once

#include "solver/MaxMinSolver.hpp"

#include <cstddef>
#include <vector>

namespace mpisim::solver {

class ReferenceMaxMin {
public:
  size_t add_constraint(double capacity, Sharing sharing);
  // penalty 0: disabled; bound < 0: unbounded.
  size_t add_variable(double penalty, double bound);
  // Coefficients of a repeated pair add up.
  void expand(size_t constraint, size_t variable, double coefficient);
  void solve();
  double value(size_t variable) const { return variables_[variable].value; }

private:
  struct Constraint {
    double capacity;
    Sharing sharing;
  };
  struct Variable {
    double penalty;
    double bound;
    double value = 0;
    bool enabled() const { return penalty > 0; }
    bool bounded() const { return bound >= 0; }
  };
  struct Element {
    size_t constraint;
    size_t variable;
    double coefficient;
  };

  void build_matrix();
  void label_components();
  void fill_component(size_t label);
  double saturation_level(size_t constraint, const std::vector<size_t>& members, const std::vector<bool>& free) const;

  std::vector<Constraint> constraints_;
  std::vector<Variable> variables_;
  std::vector<Element> elements_;

  // Built by solve().
  std::vector<std::vector<double>> coefficient_; // [constraint][variable], 0 when unrelated
  std::vector<std::vector<bool>> linked_;        // [constraint][variable]: expanded, even with coefficient 0
  std::vector<size_t> variable_label_;           // component of each enabled variable
  std::vector<size_t> constraint_label_;         // component of each constraint (none if no enabled user)
};

} // namespace mpisim::solver
