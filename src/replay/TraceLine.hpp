// Tokenizing of trace lines: blank-separated tokens, strict number parses, and the `file:line` site that every input
// error names. Shared by the index reader, the rank-count scan and the action parser.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::replay {

// Where a line is, for InputError messages `file:line: what`.
struct LineSite {
  const std::string& file;
  uint32_t line;
};

namespace detail {
// Drops an optional leading '+' (not followed by '-'); false when nothing parsable is left.
inline bool strip_plus(std::string_view& text)
{
  if (not text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    return not text.empty() && text.front() != '-';
  }
  return not text.empty();
}
} // namespace detail

// Strict parses: the whole token must be the number (no `12x`); an optional leading '+' is allowed as strtod does.
// parse_double also rejects infinities and NaN. Inline: they run once per token.
inline bool parse_int(std::string_view text, int& value)
{
  if (not detail::strip_plus(text))
    return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

inline bool parse_double(std::string_view text, double& value)
{
  if (not detail::strip_plus(text))
    return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

constexpr bool is_blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

inline std::string_view trim(std::string_view text)
{
  while (not text.empty() && is_blank(text.front()))
    text.remove_prefix(1);
  while (not text.empty() && is_blank(text.back()))
    text.remove_suffix(1);
  return text;
}

// Splits a line into blank-separated tokens (runs of blanks count as one). False for a blank line or a comment
// (first non-blank character '#'); `tokens` is then empty.
bool split_line(std::string_view line, std::vector<std::string_view>& tokens);

// One scratch token list per thread: a v-collective line on 16 384 ranks has 32 000 tokens, and keeping such a list in
// every rank's stream would cost gigabytes.
std::vector<std::string_view>& scratch_tokens();

// 'text', for messages quoting a value.
std::string in_quotes(std::string_view text);

// The rank field (first token) of an action line: a non-negative integer, else InputError at `site`.
int parse_rank_field(std::string_view token, const LineSite& site);

// Whether split tokens look like an action line `<int> <word> ...` (what tells a trace file from an index).
bool is_action_line(std::span<const std::string_view> tokens);

} // namespace mpisim::replay
