// The per-rank list of `mpisim replay --json`, written here rather than by Python's json module: the same text as
// json.dumps(document, indent=2) lays it out, at a tenth of the cost (16 384 ranks are 115 000 numbers, each a
// float repr in Python: 40 ms of a replay's fixed cost, bench/README.md, session 15).
#pragma once

#include "replay/Replayer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace mpisim::bindings {

// The text of a number is written into a caller's buffer, then each rank's entry appended at once: the per-rank list
// of 16 384 ranks is 311 000 pieces, each an append of its own before (70 M instructions, half of them the appends).

// Bytes `write_python_float` may write, at most: a sign, 17 digits, a point and an exponent, or 4 zeros before them.
inline constexpr size_t kPythonFloatBytes = 32;

// Copies `text` to `at`, returning the end.
inline char* put(char* at, std::string_view text)
{
  std::memcpy(at, text.data(), text.size());
  return at + text.size();
}

// `value` as Python's repr(float) and json.dumps write it: the shortest digits that read back as the same double
// (std::to_chars and Python's dtoa both give them, nearest to the value), laid out as Python's float_repr_style
// "short" does: exponent form when the decimal point falls 4 or more places before the first digit or more than 16
// after it (1e-05, 1e+16), else positional with at least one digit after the point (0.0001, 3.0). Writes at most
// kPythonFloatBytes bytes at `at`, returning the end.
inline char* write_python_float(char* at, double value)
{
  if (std::isnan(value))
    return put(at, "NaN");
  if (std::isinf(value))
    return put(at, value < 0 ? "-Infinity" : "Infinity");
  char text[40];
  const char* const end = std::to_chars(text, text + sizeof text, value, std::chars_format::scientific).ptr;
  const char* first = text; // [-]d[.ddd]e(+|-)dd
  if (*first == '-') {
    *at++ = '-';
    ++first;
  }
  if (value == 0)
    return put(at, "0.0");
  // The significant digits, without the point, and the decimal exponent after the 'e'.
  char digits[24];
  int count = 0;
  const char* e = first;
  for (; *e != 'e'; ++e)
    if (*e != '.')
      digits[count++] = *e;
  const bool negative_exponent = e[1] == '-';
  int exponent = 0;
  for (const char* d = e + 2; d < end; ++d)
    exponent = exponent * 10 + (*d - '0');
  if (negative_exponent)
    exponent = -exponent;
  const int point = exponent + 1; // digits d1 d2 ... stand for 0.d1d2... x 10^point
  const std::string_view all(digits, static_cast<size_t>(count));
  if (point <= -4 || point > 16) {
    *at++ = digits[0];
    if (count > 1) {
      *at++ = '.';
      at = put(at, all.substr(1));
    }
    at = put(at, negative_exponent ? "e-" : "e+");
    return put(at, std::string_view(e + 2, static_cast<size_t>(end - (e + 2)))); // at least two digits, as Python
  }
  if (point <= 0) {
    at = put(at, "0.");
    at = std::fill_n(at, -point, '0');
    return put(at, all);
  }
  if (point >= count) {
    at = put(at, all);
    at = std::fill_n(at, point - count, '0');
    return put(at, ".0");
  }
  at = put(at, all.substr(0, static_cast<size_t>(point)));
  *at++ = '.';
  return put(at, all.substr(static_cast<size_t>(point)));
}

inline void append_python_float(std::string& out, double value)
{
  char text[kPythonFloatBytes];
  out.append(text, write_python_float(text, value));
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
  // One entry's text: its keys (at most 13 bytes each with their indent), 6 numbers, two integers of 20 digits.
  char entry[512];
  for (size_t rank = 0; rank < result.ranks.size(); ++rank) {
    const replay::RankStats& r = result.ranks[rank];
    char* at = put(entry, rank == 0 ? "\n    {\n      \"rank\": " : ",\n    {\n      \"rank\": ");
    at = std::to_chars(at, at + 20, rank).ptr;
    const auto number = [&at](std::string_view key, double value) {
      at = put(at, ",\n      \"");
      at = put(at, key);
      at = put(at, "\": ");
      at = write_python_float(at, value);
    };
    number("compute", r.compute);
    number("sleep", r.sleep);
    number("communicate", r.communicate);
    number("wait", r.wait);
    number("finish", r.finish);
    at = put(at, ",\n      \"actions\": ");
    at = std::to_chars(at, at + 20, r.actions).ptr;
    at = put(at, r.failed ? ",\n      \"failed\": true" : ",\n      \"failed\": false");
    if (checkpointing)
      number("checkpoint", r.checkpoint);
    at = put(at, "\n    }");
    out.append(entry, at);
  }
  out += "\n  ]";
  return out;
}

} // namespace mpisim::bindings
