#include "common/OptionTable.hpp"

#include "common/Errors.hpp"
#include "common/Units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace mpisim::options {

namespace {

std::string quoted(std::string_view text)
{
  return "'" + std::string(text) + "'";
}

std::string_view trimmed(std::string_view text)
{
  while (not text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (not text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

// "an integer", "an integer from 1 to 2147483647", "an integer >= 1".
std::string integer_expected(const OptionInfo& option)
{
  std::string text = "an integer";
  if (not option.minimum.empty() && not option.maximum.empty())
    return text + " from " + option.minimum + " to " + option.maximum;
  if (not option.minimum.empty())
    return text + " >= " + option.minimum;
  if (not option.maximum.empty())
    return text + " <= " + option.maximum;
  return text;
}

long long parse_integer(std::string_view text, const OptionInfo& option, std::string_view shown_as)
{
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    throw InputError(std::string(shown_as) + " expects " + integer_expected(option) + ", got " + quoted(text));
  return value;
}

// A typed value for the bound messages: a quantity in its base unit ("1024B").
std::string shown_value(const OptionInfo& option, const OptionValue& value)
{
  if (const long long* integer = std::get_if<long long>(&value))
    return std::to_string(*integer);
  const char* unit = option.type == ValueType::Time ? "s" : option.type == ValueType::Speed ? "f" : "B";
  char text[48];
  std::snprintf(text, sizeof text, "%g%s", std::get<double>(value), unit);
  return text;
}

double as_number(const OptionValue& value)
{
  if (const long long* integer = std::get_if<long long>(&value))
    return static_cast<double>(*integer);
  return std::get<double>(value);
}

// "NAME=VALUE", both sides trimmed; the name must not be empty.
std::pair<std::string, std::string> parse_assignment(std::string_view text, const OptionInfo& option,
                                                     std::string_view shown_as)
{
  const size_t equal = text.find('=');
  const std::string_view name = trimmed(text.substr(0, equal));
  if (equal == std::string_view::npos || name.empty())
    throw InputError(std::string(shown_as) + " expects " + option.metavar + ", got " + quoted(text));
  return {std::string(name), std::string(trimmed(text.substr(equal + 1)))};
}

// "OP=ALGO,OP=ALGO": empty items are skipped (a trailing comma); each item needs both sides.
Assignments parse_assignment_list(std::string_view text, const OptionInfo& option, std::string_view shown_as)
{
  Assignments out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    start = comma + 1;
    if (item.empty())
      continue;
    auto assignment = parse_assignment(item, option, shown_as);
    if (assignment.second.empty())
      throw InputError(std::string(shown_as) + " expects " + option.metavar + ", got " + quoted(item));
    out.push_back(std::move(assignment));
  }
  return out;
}

std::string parse_choice(std::string_view text, const OptionInfo& option, std::string_view shown_as)
{
  std::string known;
  for (const std::string& choice : option.choices) {
    if (choice == text)
      return choice;
    known += (known.empty() ? "" : ", ") + choice;
  }
  std::string noun = option.metavar;
  for (char& c : noun)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  throw InputError(std::string(shown_as) + ": unknown " + noun + " " + quoted(text) + " (" + known + ")");
}

// A quantity with a unit: the unit parser's message, prefixed by the option.
double parse_quantity(ValueType type, std::string_view text, std::string_view shown_as)
{
  try {
    switch (type) {
    case ValueType::Time: return units::parse_time(text);
    case ValueType::Speed: return units::parse_speed(text);
    default: return units::parse_size(text);
    }
  } catch (const InputError& error) {
    throw InputError(std::string(shown_as) + ": " + error.message());
  }
}

} // namespace

const char* type_name(ValueType type)
{
  switch (type) {
  case ValueType::Flag: return "flag";
  case ValueType::Integer: return "integer";
  case ValueType::Text: return "text";
  case ValueType::Choice: return "choice";
  case ValueType::Time: return "time";
  case ValueType::Speed: return "speed";
  case ValueType::Size: return "size";
  case ValueType::Assignment: return "assignment";
  case ValueType::AssignmentList: return "assignment_list";
  }
  return "text";
}

OptionValue parse_value(const OptionInfo& option, std::string_view text, std::string_view shown_as)
{
  switch (option.type) {
  case ValueType::Flag:
    if (text == "true" || text == "yes" || text == "1")
      return true;
    if (text == "false" || text == "no" || text == "0")
      return false;
    throw InputError(std::string(shown_as) + " is a flag: true or false, got " + quoted(text));
  case ValueType::Integer: {
    OptionValue value = parse_integer(text, option, shown_as);
    check_bounds(option, value, shown_as);
    return value;
  }
  case ValueType::Text: return std::string(text);
  case ValueType::Choice: return parse_choice(text, option, shown_as);
  case ValueType::Time:
  case ValueType::Speed:
  case ValueType::Size: {
    OptionValue value = parse_quantity(option.type, text, shown_as);
    check_bounds(option, value, shown_as);
    return value;
  }
  case ValueType::Assignment: return Assignments{parse_assignment(text, option, shown_as)};
  case ValueType::AssignmentList: return parse_assignment_list(text, option, shown_as);
  }
  return std::string(text);
}

void check_bounds(const OptionInfo& option, const OptionValue& value, std::string_view shown_as)
{
  if (option.type == ValueType::Integer) {
    const long long given = std::get<long long>(value);
    const bool below = not option.minimum.empty() && given < parse_integer(option.minimum, option, "minimum");
    const bool above = not option.maximum.empty() && given > parse_integer(option.maximum, option, "maximum");
    if (below || above)
      throw InputError(std::string(shown_as) + " expects " + integer_expected(option) + ", got " +
                       quoted(shown_value(option, value)));
    return;
  }
  if (option.type != ValueType::Time && option.type != ValueType::Speed && option.type != ValueType::Size)
    return;
  const double given = as_number(value);
  if (not std::isfinite(given) || given < 0) // only the Python API can give these: text went through the units
    throw InputError(std::string(shown_as) + ": " + quoted(shown_value(option, value)) +
                     " is not a finite number >= 0");
  if (not option.minimum.empty() && given < parse_quantity(option.type, option.minimum, "minimum"))
    throw InputError(std::string(shown_as) + ": " + quoted(shown_value(option, value)) + " is below the minimum, " +
                     option.minimum);
  if (not option.maximum.empty() && given > parse_quantity(option.type, option.maximum, "maximum"))
    throw InputError(std::string(shown_as) + ": " + quoted(shown_value(option, value)) + " is above the maximum, " +
                     option.maximum);
}

std::string describe(const OptionInfo& option)
{
  std::string text = option.help;
  if (not option.minimum.empty() && not option.maximum.empty())
    text += " (" + option.minimum + " to " + option.maximum + ")";
  else if (not option.minimum.empty())
    text += " (at least " + option.minimum + ")";
  else if (not option.maximum.empty())
    text += " (at most " + option.maximum + ")";
  if (not option.default_value.empty())
    text += " (default: " + option.default_value + ")";
  if (not option.simgrid.empty()) {
    text += " [SimGrid:";
    for (const std::string& name : option.simgrid)
      text += " " + name;
    text += "]";
  }
  return text;
}

std::string help_line(const OptionInfo& option)
{
  std::string left = "  " + option.name;
  for (const std::string& spelling : option.spellings)
    left += ", " + spelling;
  if (option.type == ValueType::Choice) {
    left += " ";
    for (const std::string& choice : option.choices)
      left += choice + (&choice == &option.choices.back() ? "" : "|");
  } else if (option.type != ValueType::Flag) {
    left += " " + option.metavar;
  }
  constexpr size_t kColumn = 32;
  left += left.size() < kColumn ? std::string(kColumn - left.size(), ' ') : "\n" + std::string(kColumn, ' ');
  return left + describe(option) + "\n";
}

std::string unknown_option_message(std::string_view command, std::string_view option)
{
  return "unknown option " + std::string(option) + " (`mpisim " + std::string(command) + " --help` lists the options)";
}

} // namespace mpisim::options
