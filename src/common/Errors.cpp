#include "common/Errors.hpp"

namespace mpisim {

// Printable whatever the input's bytes (messages quote them): "FILE:LINE:" must reach the user intact.
static std::string located(const std::string& file, long line, const std::string& message)
{
  if (file.empty())
    return printable_text(message);
  if (line <= 0)
    return printable_text(file + ": " + message);
  return printable_text(file + ":" + std::to_string(line) + ": " + message);
}

InputError::InputError(std::string file, long line, const std::string& message)
    : std::runtime_error(located(file, line, message)), file_(std::move(file)), line_(line),
      message_(printable_text(message))
{
}

namespace {

// The length of the well-formed UTF-8 sequence at the start of `text` (1 to 4), or 0 when it is not one. Overlong
// forms, surrogates (U+D800..U+DFFF) and code points above U+10FFFF are not well formed (Unicode, Table 3-7).
size_t utf8_sequence_length(std::string_view text)
{
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80)
    return 1;
  size_t length = 0;
  unsigned char second_low = 0x80, second_high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0)
      second_low = 0xA0;
    if (lead == 0xED)
      second_high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0)
      second_low = 0x90;
    if (lead == 0xF4)
      second_high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length || byte(1) < second_low || byte(1) > second_high)
    return 0;
  for (size_t i = 2; i < length; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF)
      return 0;
  return length;
}

} // namespace

std::string printable_text(std::string_view text)
{
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  while (not text.empty()) {
    const size_t length = utf8_sequence_length(text);
    if (length == 0) {
      const auto byte = static_cast<unsigned char>(text.front());
      out += {'\\', 'x', kHex[byte >> 4], kHex[byte & 0xF]};
      text.remove_prefix(1);
      continue;
    }
    out.append(text.substr(0, length));
    text.remove_prefix(length);
  }
  return out;
}

} // namespace mpisim
