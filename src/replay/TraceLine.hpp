// Tokenizing of trace lines: blank-separated tokens, strict number parses, and the `file:line` site that every input
// error names. Shared by the index reader, the rank-count scan and the action parser.
#pragma once

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
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

inline constexpr uint64_t kEveryByte = 0x0101010101010101;

// Eight digit values (0 to 9), the first in the lowest byte, as one number: combined by pairs, then by fours, then the
// two halves, each step one multiply-add in place (a lane's sum stays below the lane's size: no carries).
inline uint64_t combine_digit_lanes(uint64_t lanes)
{
  lanes = (lanes * 10 + (lanes >> 8)) & 0x00FF00FF00FF00FF;   // 16-bit lanes: two digits, at most 99
  lanes = (lanes * 100 + (lanes >> 16)) & 0x0000FFFF0000FFFF; // 32-bit lanes: four digits, at most 9 999
  return (lanes * 10000 + (lanes >> 32)) & 0xFFFFFFFF;        // eight digits
}

// The lowest byte of `word` at or below ' ' (a blank, a control character, a line's '\n') flagged by its high bit;
// higher flags may be borrows, never to be looked at. 0 when every byte is above ' '.
inline uint64_t lowest_byte_at_most_space(uint64_t word)
{
  return (word - kEveryByte * 0x21) & ~word & (kEveryByte * 0x80);
}

// The value of 4 to 8 decimal digits at `text`, or false when one is no digit. The digits are read as one
// little-endian word (two overlapping 4-byte loads inside the text), padded in front with '0's to 8, checked at once
// (every byte 0x30 to 0x39: high nibble 3, and still 3 after adding 6) and combined (combine_digit_lanes).
inline bool parse_four_to_eight_digits(const char* text, size_t count, uint64_t& value)
{
  uint32_t low = 0;
  uint32_t high = 0;
  std::memcpy(&low, text, 4);
  std::memcpy(&high, text + count - 4, 4);
  const uint64_t bytes = low | (static_cast<uint64_t>(high) << (8 * (count - 4))); // the overlap ORs equal bytes
  const uint64_t zeros = kEveryByte * '0';
  const uint64_t word = count == 8 ? bytes : (bytes << (8 * (8 - count))) | (zeros >> (8 * count));
  const uint64_t high_nibbles = kEveryByte * 0xF0;
  if (((word & high_nibbles) | (((word + kEveryByte * 6) & high_nibbles) >> 4)) != kEveryByte * 0x33)
    return false;
  value = combine_digit_lanes(word - zeros); // the digits, the first in the lowest byte
  return true;
}

// The fast path of the number parses: a token of 1 to `max_digits` decimal digits after an optional '+' (leading zeros
// allowed), the common case of a trace. Its value is what from_chars reads from it (an integer below 10^15 is exact
// in a double); any other token returns false and goes to from_chars.
inline bool parse_plain_digits(std::string_view text, size_t max_digits, uint64_t& value)
{
  if (not text.empty() && text.front() == '+')
    text.remove_prefix(1);
  if (text.empty() || text.size() > max_digits)
    return false;
  if constexpr (std::endian::native == std::endian::little)
    if (text.size() >= 4 && text.size() <= 8)
      return parse_four_to_eight_digits(text.data(), text.size(), value);
  uint64_t digits = 0;
  for (const char c : text) {
    const auto digit = static_cast<unsigned>(static_cast<unsigned char>(c) - '0');
    if (digit > 9)
      return false;
    digits = digits * 10 + digit;
  }
  value = digits;
  return true;
}

// Eight bytes at `text` as one little-endian word (the first byte lowest).
inline uint64_t load_word(const char* text)
{
  uint64_t word;
  std::memcpy(&word, text, 8);
  return word;
}

// The bytes of `word` that are no decimal digit, each flagged by its high bit: below '0' (a byte's low seven bits plus
// 0x80 minus '0' stays below 0x80), above '9' (its low seven bits plus 0x46 reach 0x80) or with the high bit set. No
// carry or borrow crosses a byte, so every flag is exact.
inline uint64_t non_digit_bytes(uint64_t word)
{
  constexpr uint64_t kHighBits = kEveryByte * 0x80;
  const uint64_t low_seven = word & ~kHighBits;
  const uint64_t below_zero = ~((low_seven | kHighBits) - kEveryByte * '0');
  const uint64_t above_nine = low_seven + kEveryByte * 0x46;
  return (below_zero | above_nine | word) & kHighBits;
}

// The value of the `count` (1 to 8) decimal digits that start `word`: shifted to the word's top they read as that
// number padded in front with zeros, then combined (the bytes after them are cut off by the shift; the subtraction
// borrows only upwards, from them, never into the digits).
inline uint64_t leading_digits_value(uint64_t word, size_t count)
{
  return combine_digit_lanes((word - kEveryByte * '0') << (8 * (8 - count)));
}

// Nine digits always fit an int; fifteen always make an exact double.
inline constexpr size_t kPlainIntDigits = 9;
inline constexpr size_t kPlainDoubleDigits = 15;
} // namespace detail

// Strict parses: the whole token must be the number (no `12x`); an optional leading '+' is allowed as strtod does.
// parse_double also rejects infinities and NaN. Inline: they run once per token.
inline bool parse_int(std::string_view text, int& value)
{
  if (uint64_t digits; detail::parse_plain_digits(text, detail::kPlainIntDigits, digits)) {
    value = static_cast<int>(digits);
    return true;
  }
  if (not detail::strip_plus(text))
    return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

inline bool parse_double(std::string_view text, double& value)
{
  if (uint64_t digits; detail::parse_plain_digits(text, detail::kPlainDoubleDigits, digits)) {
    value = static_cast<double>(digits);
    return true;
  }
  if (not detail::strip_plus(text))
    return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

constexpr bool is_blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// is_blank as one table look-up per character (the tokenizers' inner loops).
inline constexpr std::array<bool, 256> kBlankBytes = [] {
  std::array<bool, 256> table{};
  for (size_t c = 0; c < table.size(); ++c)
    table[c] = is_blank(static_cast<char>(c));
  return table;
}();

inline bool blank_at(const char* position)
{
  return kBlankBytes[static_cast<unsigned char>(*position)];
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

// split_line for a line with 8 readable bytes after its end (ChunkedLineReader::next_line's lines, the index's and the
// rank files'), of any value: the tokenizer then reads the line 8 bytes at a time up to its end. split_line, for any
// other text, goes byte by byte.
bool split_buffered_line(std::string_view line, std::vector<std::string_view>& tokens);

// One scratch token list per thread: a v-collective line on 16 384 ranks has 32 000 tokens, and keeping such a list in
// every rank's stream would cost gigabytes.
std::vector<std::string_view>& scratch_tokens();

// 'text', for messages quoting a value.
std::string in_quotes(std::string_view text);

namespace detail {
[[noreturn]] void fail_rank_field(std::string_view token, const LineSite& site);
} // namespace detail

// The rank field (first token) of an action line: a non-negative integer, else InputError at `site`.
inline int parse_rank_field(std::string_view token, const LineSite& site)
{
  int rank;
  if (not parse_int(token, rank) || rank < 0)
    detail::fail_rank_field(token, site);
  return rank;
}

// A rank's own rank field, as the first bytes of its file's lines: its digits (without leading zeros, as a rank is
// written) compared with a line's first word at once instead of parsed. For lines followed by '\n' and 7 more readable
// bytes (ChunkedLineReader's); a rank of more than 8 digits, or a big-endian host, never matches.
class PlainRankField {
public:
  explicit PlainRankField(int rank)
  {
    const std::string digits = std::to_string(rank);
    if (std::endian::native != std::endian::little || rank < 0 || digits.size() > 8)
      return;
    length_ = digits.size();
    for (size_t i = 0; i < length_; ++i)
      word_ |= static_cast<uint64_t>(static_cast<unsigned char>(digits[i])) << (8 * i);
    mask_ = length_ == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * length_)) - 1;
  }

  // Whether `line` (followed by '\n', as ChunkedLineReader's lines) starts with these digits and a blank: then true
  // with `line` the rest after the blanks. False for any other line (another rank, leading blanks or zeros, a '+'),
  // left to parse_rank_field. A shorter line differs within the word: its '\n' is no digit.
  bool skip(std::string_view& line) const
  {
    const char* const text = line.data();
    if (length_ == kNever || (detail::load_word(text) & mask_) != word_ || not blank_at(text + length_))
      return false;
    size_t after = length_ + 1;
    while (blank_at(text + after)) // the line's '\n' ends the blanks
      ++after;
    line.remove_prefix(after);
    return true;
  }

private:
  static constexpr size_t kNever = ~size_t{0}; // no line is that long
  size_t length_ = kNever;
  uint64_t word_ = 0;
  uint64_t mask_ = 0;
};

// Whether split tokens look like an action line `<int> <word> ...` (what tells a trace file from an index).
bool is_action_line(std::span<const std::string_view> tokens);

} // namespace mpisim::replay
