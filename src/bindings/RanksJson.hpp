// The per-rank list of `mpisim replay --json`, written here rather than by Python's json module: the same text as
// json.dumps(document, indent=2) lays it out, at a tenth of the cost (16 384 ranks are 115 000 numbers, each a
// float repr in Python: 40 ms of a replay's fixed cost, bench/README.md, session 15).
#pragma once

#include "replay/Replayer.hpp"

#include <charconv>
#include <cmath>
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
  const char* const end = std::to_chars(text, text + sizeof text, value, std::chars_format::scientific).ptr;
  const char* first = text; // [-]d[.ddd]e(+|-)dd
  if (*first == '-') {
    out += '-';
    ++first;
  }
  if (value == 0) {
    out += "0.0";
    return;
  }
  // The significant digits, without the point, and the decimal exponent after the 'e'.
  char digits[24];
  int count = 0;
  const char* at = first;
  for (; *at != 'e'; ++at)
    if (*at != '.')
      digits[count++] = *at;
  const bool negative_exponent = at[1] == '-';
  int exponent = 0;
  for (const char* d = at + 2; d < end; ++d)
    exponent = exponent * 10 + (*d - '0');
  if (negative_exponent)
    exponent = -exponent;
  const int point = exponent + 1; // digits d1 d2 ... stand for 0.d1d2... x 10^point
  const std::string_view all(digits, static_cast<size_t>(count));
  if (point <= -4 || point > 16) {
    out += digits[0];
    if (count > 1) {
      out += '.';
      out.append(all.substr(1));
    }
    out += negative_exponent ? "e-" : "e+";
    out.append(at + 2, end); // to_chars writes at least two exponent digits, as Python does
  } else if (point <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-point), '0');
    out.append(all);
  } else if (point >= count) {
    out.append(all);
    out.append(static_cast<size_t>(point - count), '0');
    out += ".0";
  } else {
    out.append(all.substr(0, static_cast<size_t>(point)));
    out += '.';
    out.append(all.substr(static_cast<size_t>(point)));
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
