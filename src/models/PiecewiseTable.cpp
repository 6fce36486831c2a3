#include "models/PiecewiseTable.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace mpisim::models {

namespace {
// A finite number: NaN or infinity in a factor or an overhead would make a transfer never end.
double to_number(const std::string& token, const std::string& text)
{
  double value = 0;
  size_t used = 0;
  try {
    value = std::stod(token, &used);
  } catch (const std::exception&) { // no number, or out of a double's range
    used = 0;
  }
  if (used == 0 || used != token.size())
    throw InputError("'" + token + "' is not a number in the table '" + text + "'");
  if (not std::isfinite(value))
    throw InputError("'" + token + "' is not a finite number in the table '" + text + "'");
  return value;
}
} // namespace

PiecewiseTable PiecewiseTable::parse(const std::string& text)
{
  PiecewiseTable table;
  std::stringstream sections(text);
  std::string section;
  while (std::getline(sections, section, ';')) {
    if (section.empty())
      continue;
    std::stringstream fields(section);
    std::string field;
    Entry entry{0, {}};
    bool first = true;
    while (std::getline(fields, field, ':')) {
      if (first) {
        entry.threshold = to_number(field, text);
        if (entry.threshold < 0) // a message size
          throw InputError("threshold " + field + " of the table '" + text + "' is negative (sizes are >= 0)");
      } else
        entry.values.push_back(to_number(field, text));
      first = false;
    }
    if (entry.values.empty())
      throw InputError("section '" + section + "' of the table '" + text + "' has no value (expected threshold:value)");
    table.entries_.push_back(entry);
  }
  std::stable_sort(table.entries_.begin(), table.entries_.end(),
                   [](const Entry& a, const Entry& b) { return a.threshold < b.threshold; });
  return table;
}

double PiecewiseTable::lowest_value() const
{
  double lowest = std::numeric_limits<double>::infinity();
  for (const Entry& entry : entries_)
    for (double value : entry.values)
      lowest = std::min(lowest, value);
  return lowest;
}

double PiecewiseTable::factor(double size, double fallback) const
{
  double value = fallback;
  for (const Entry& entry : entries_) {
    if (size <= entry.threshold)
      break;
    value = entry.values.front();
  }
  return value;
}

double PiecewiseTable::affine(double size) const
{
  if (entries_.empty())
    return 0;
  const Entry* chosen = &entries_.front();
  for (const Entry& entry : entries_)
    if (entry.threshold < size)
      chosen = &entry;
  double a = chosen->values[0];
  double b = chosen->values.size() > 1 ? chosen->values[1] : 0.0;
  return a + b * size;
}

} // namespace mpisim::models
