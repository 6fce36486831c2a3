// Decision tables of the library selectors (ompi.cpp, mvapich2.cpp, impi.cpp): the
// libraries' fixed rules written as data. A table is a list of rows tried in order; a row applies to communicators of
// `size_from` <= size < `size_below` ranks and lists, in increasing order, message-size bounds: the first bound the
// message size is below gives the algorithm.
#pragma once

#include <limits>
#include <string>
#include <vector>

namespace mpisim::mpi::decision {

inline constexpr double kAbove = std::numeric_limits<double>::infinity();

struct SizeRule {
  double bytes_below;
  const char* algorithm;
};

struct CommRow {
  double size_from;
  double size_below;
  std::vector<SizeRule> rules;
};

using DecisionTable = std::vector<CommRow>;

// The algorithm of the first row matching `comm_size`, at `bytes`; an empty string if no row matches.
inline std::string decide(const DecisionTable& table, int comm_size, double bytes)
{
  for (const CommRow& row : table) {
    if (comm_size < row.size_from || comm_size >= row.size_below)
      continue;
    for (const SizeRule& rule : row.rules)
      if (bytes < rule.bytes_below)
        return rule.algorithm;
    return row.rules.back().algorithm;
  }
  return {};
}

// Every algorithm name a table can give (for tests and documentation).
inline std::vector<std::string> names_in(const DecisionTable& table)
{
  std::vector<std::string> names;
  for (const CommRow& row : table)
    for (const SizeRule& rule : row.rules)
      names.emplace_back(rule.algorithm);
  return names;
}

} // namespace mpisim::mpi::decision
