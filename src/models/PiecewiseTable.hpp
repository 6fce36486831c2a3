// A value that depends on the message size by intervals, in SimGrid's "threshold:value;threshold:value" syntax.
//
// Lookup rule (SimGrid 3.32, verified): the value of the largest threshold t with t < size (strictly), or the
// default (1.0 for factors) when no threshold is below the size. So intervals are (t_i, t_{i+1}]. Affine entries
// "threshold:a:b" give a + b*size (SimGrid's smpi/os syntax), where the first entry applies below every threshold.
// Every number must be finite and every threshold >= 0 (InputError otherwise); what range the values take is the
// parameter's business (models/Parameters.hpp).
#pragma once

#include <string>
#include <vector>

namespace mpisim::models {

class PiecewiseTable {
public:
  static PiecewiseTable parse(const std::string& text);

  // Factor lookup: value of the largest threshold strictly below `size`, or `fallback`.
  double factor(double size, double fallback = 1.0) const;
  // Affine lookup (smpi/os, smpi/or, smpi/ois): a + b*size of the last section whose threshold is below `size`,
  // the first section if none is.
  double affine(double size) const;

  bool empty() const { return entries_.empty(); }
  // The smallest value of any section (infinity for an empty table), for range checks.
  double lowest_value() const;

private:
  struct Entry {
    double threshold;
    std::vector<double> values;
  };
  std::vector<Entry> entries_; // sorted by threshold
};

} // namespace mpisim::models
