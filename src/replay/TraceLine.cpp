#include "replay/TraceLine.hpp"

#include "common/Errors.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstring>

namespace mpisim::replay {

namespace {

// is_blank as one table look-up per character (the tokenizer's inner loops).
constexpr std::array<bool, 256> kBlankBytes = [] {
  std::array<bool, 256> table{};
  for (size_t c = 0; c < table.size(); ++c)
    table[c] = is_blank(static_cast<char>(c));
  return table;
}();

bool blank_at(const char* position)
{
  return kBlankBytes[static_cast<unsigned char>(*position)];
}

constexpr uint64_t kEveryByte = 0x0101010101010101;

// The 8 bytes of the line from `position` as a little-endian word; past `end`, zero bytes. A line of 8 bytes or more
// is read in one load even at its end (the last 8 bytes, shifted), a shorter one byte by byte.
uint64_t load_word(const char* position, const char* line_begin, const char* end)
{
  const auto left = static_cast<size_t>(end - position);
  uint64_t word = 0;
  if (left >= 8) {
    std::memcpy(&word, position, 8);
  } else if (end - line_begin >= 8) {
    std::memcpy(&word, end - 8, 8);
    word >>= 8 * (8 - left);
  } else {
    for (size_t i = 0; i < left; ++i)
      word |= static_cast<uint64_t>(static_cast<unsigned char>(position[i])) << (8 * i);
  }
  return word;
}

// The end of the token starting at `position`: its first blank, or `end`. Eight bytes at a time: the lowest byte at or
// below ' ' (blanks, control characters and the zeros past the end) is found with word arithmetic (its high bit set
// in `low`; higher flags may be borrows, never looked at), then checked against the blanks. `kReadablePast`: the 8
// bytes after `end` can be read (a ChunkedLineReader's line), so every word is one load; what lies past `end` only
// ends the token there.
template <bool kReadablePast> const char* token_end(const char* position, const char* line_begin, const char* end)
{
  if constexpr (std::endian::native == std::endian::little) {
    while (position < end) {
      uint64_t word;
      if constexpr (kReadablePast)
        std::memcpy(&word, position, 8);
      else
        word = load_word(position, line_begin, end);
      const uint64_t low = (word - kEveryByte * 0x21) & ~word & (kEveryByte * 0x80);
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
  const char* const line_begin = line.data();
  const char* position = line_begin;
  const char* const end = position + line.size();
  while (position != end && blank_at(position))
    ++position;
  if (position == end || *position == '#')
    return false;
  do {
    const char* const start = position;
    position = token_end<kReadablePast>(position, line_begin, end);
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
