#include "replay/TraceLine.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstring>

namespace mpisim::replay {

namespace {

// The end of the token starting at `position`: its first blank, or `end`. With `kReadablePast` (a ChunkedLineReader's
// line: 8 readable bytes after `end`) eight bytes at a time: the lowest byte at or below ' ' (blanks, control
// characters) is found with word arithmetic (lowest_byte_at_most_space), then checked against the blanks; what lies
// past `end` only ends the token there. Otherwise byte by byte.
template <bool kReadablePast> const char* token_end(const char* position, const char* end)
{
  if constexpr (kReadablePast && std::endian::native == std::endian::little) {
    while (position < end) {
      const uint64_t word = detail::load_word(position);
      const uint64_t low = detail::lowest_byte_at_most_space(word);
      if (low == 0) {
        position += 8;
        continue;
      }
      const char* const found = position + std::countr_zero(low) / 8;
      if (found >= end || blank_at(found))
        return std::min(found, end);
      position = found + 1; // a control character that is no blank belongs to the token
    }
    return end;
  } else {
    while (position != end && not blank_at(position))
      ++position;
    return position;
  }
}

// One pass over the line: leading blanks, then tokens each followed by their blanks (trailing blanks are the last
// token's), as trimming the line and splitting it on runs of blanks would give.
template <bool kReadablePast> bool split(std::string_view line, std::vector<std::string_view>& tokens)
{
  tokens.clear();
  const char* position = line.data();
  const char* const end = position + line.size();
  while (position != end && blank_at(position))
    ++position;
  if (position == end || *position == '#')
    return false;
  do {
    const char* const start = position;
    position = token_end<kReadablePast>(position, end);
    tokens.emplace_back(start, static_cast<size_t>(position - start));
    if (position == end)
      break;
    ++position; // the blank that ended the token
    while (position != end && blank_at(position))
      ++position;
  } while (position != end);
  return true;
}

} // namespace

bool split_line(std::string_view line, std::vector<std::string_view>& tokens)
{
  return split<false>(line, tokens);
}

bool split_buffered_line(std::string_view line, std::vector<std::string_view>& tokens)
{
  return split<true>(line, tokens);
}

std::vector<std::string_view>& scratch_tokens()
{
  static thread_local std::vector<std::string_view> tokens;
  return tokens;
}

std::string in_quotes(std::string_view text)
{
  return "'" + std::string(text) + "'";
}

void detail::fail_rank_field(std::string_view token, const LineSite& site)
{
  throw InputError(site.file, site.line, "rank field " + in_quotes(token) + " is not a rank number");
}

bool is_action_line(std::span<const std::string_view> tokens)
{
  int rank;
  return tokens.size() >= 2 && parse_int(tokens[0], rank) && std::isalpha(static_cast<unsigned char>(tokens[1][0]));
}

} // namespace mpisim::replay
