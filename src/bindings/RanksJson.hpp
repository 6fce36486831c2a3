// The per-rank list of `mpisim replay --json`, written here rather than by Python's json module: the same text as
// json.dumps(document, indent=2) lays it out, at a tenth of the cost (16 384 ranks are 115 000 numbers, each a
// float repr in Python: 40 ms of a replay's fixed cost, bench/README.md, session 15).
#pragma once

#include "replay/Replayer.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

namespace mpisim::bindings {

// `value` as Python's repr(float) and json.dumps write it: the shortest digits that read back as the same double
// (std::to_chars and Python's dtoa both give them, nearest to the value), laid out as Python's float_repr_style
// "short" does: exponent form when the decimal point falls 4 or more places before the first digit or more than 16
// after it (1e-05, 1e+16), else positional with at least one digit after the point (0.0001, 3.0).
inline void append_python_float(std::string& out, double value)
{
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-Infinity" : "Infinity";
    return;
  }
  char text[40];
  const auto end = std::to_chars(text, text + sizeof text, value, std::chars_format::scientific).ptr;
  std::string_view scientific(text, static_cast<size_t>(end - text)); // [-]d[.ddd]e(+|-)dd
  if (scientific.front() == '-') {
    out += '-';
    scientific.remove_prefix(1);
  }
  const size_t e = scientific.find('e');
  std::string digits(1, scientific[0]);
  if (e > 1)
    digits.append(scientific.substr(2, e - 2));
  const int exponent = std::atoi(std::string(scientific.substr(e + 1)).c_str());
  const int point = exponent + 1; // digits d1 d2 ... stand for 0.d1d2... x 10^point
  const int count = static_cast<int>(digits.size());
  if (value == 0) {
    out += "0.0";
  } else if (point <= -4 || point > 16) {
    out += digits[0];
    if (count > 1) {
      out += '.';
      out.append(digits, 1);
    }
    const int shown = point - 1;
    out += shown < 0 ? "e-" : "e+";
    if (std::abs(shown) < 10)
      out += '0';
    out += std::to_string(std::abs(shown));
  } else if (point <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-point), '0');
    out += digits;
  } else if (point >= count) {
    out += digits;
    out.append(static_cast<size_t>(point - count), '0');
    out += ".0";
  } else {
    out.append(digits, 0, static_cast<size_t>(point));
    out += '.';
    out.append(digits, static_cast<size_t>(point));
  }
}

// The result's "ranks" list as json.dumps(..., indent=2) writes it inside the document (the list at nesting level
// 1: its entries indented by 4, their items by 6), the items in the order of mpisim.api.RankStats's fields
// ("checkpoint" only with checkpoint/restart). Empty when there is no rank (Python then writes "[]" itself).
inline std::string ranks_json(const replay::ReplayResult& result)
{
  if (result.ranks.empty())
    return {};
  const bool checkpointing = not result.attempts.empty();
  std::string out;
  out.reserve(result.ranks.size() * (checkpointing ? 260 : 230));
  out += '[';
  for (size_t rank = 0; rank < result.ranks.size(); ++rank) {
    const replay::RankStats& r = result.ranks[rank];
    out += rank == 0 ? "\n    {\n      \"rank\": " : ",\n    {\n      \"rank\": ";
    out += std::to_string(rank);
    const auto number = [&out](const char* key, double value) {
      out += ",\n      \"";
      out += key;
      out += "\": ";
      append_python_float(out, value);
    };
    number("compute", r.compute);
    number("sleep", r.sleep);
    number("communicate", r.communicate);
    number("wait", r.wait);
    number("finish", r.finish);
    out += ",\n      \"actions\": ";
    out += std::to_string(r.actions);
    out += r.failed ? ",\n      \"failed\": true" : ",\n      \"failed\": false";
    if (checkpointing)
      number("checkpoint", r.checkpoint);
    out += "\n    }";
  }
  out += "\n  ]";
  return out;
}

} // namespace mpisim::bindings
