#include "common/Units.hpp"

#include "common/Errors.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace mpisim::units {
namespace {

using UnitTable = std::unordered_map<std::string, double>;

// Adds `unit` and its prefixed forms. Each prefix multiplies the previous value by 1000 (decimal)
// or 1024 (binary); the repeated multiplication reproduces SimGrid's numbers bit for bit.
void add_prefixed(UnitTable& table, const std::string& unit, double value, bool binary, bool long_prefixes)
{
  static const std::vector<std::string> decimal_short = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
  static const std::vector<std::string> decimal_long = {"kilo", "mega", "giga", "tera", "peta", "exa", "zeta", "yotta"};
  static const std::vector<std::string> binary_short = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
  const auto& prefixes = binary ? binary_short : (long_prefixes ? decimal_long : decimal_short);
  const double step = binary ? 1024.0 : 1000.0;
  table.emplace(unit, value);
  for (const auto& prefix : prefixes) {
    value *= step;
    table.emplace(prefix + unit, value);
  }
}

// What one kind of quantity needs for parsing and for its messages.
struct QuantityKind {
  const char* name;      // "speed"
  const char* base_unit; // unit assumed for a unit-less value
  const char* advice;    // how to write the unit, for the deprecation warning
  UnitTable units;
};

const QuantityKind& speed_kind()
{
  static const QuantityKind kind = [] {
    QuantityKind k{"speed", "f", "append 'f' or 'flops' (flop per second)", {}};
    add_prefixed(k.units, "f", 1.0, false, false);
    add_prefixed(k.units, "flops", 1.0, false, true);
    return k;
  }();
  return kind;
}

const QuantityKind& bandwidth_kind()
{
  static const QuantityKind kind = [] {
    QuantityKind k{"bandwidth", "Bps", "append 'Bps' (bytes per second) or 'bps' (bits per second)", {}};
    for (bool binary : {false, true}) {
      add_prefixed(k.units, "Bps", 1.0, binary, false);
      add_prefixed(k.units, "bps", 0.125, binary, false);
    }
    return k;
  }();
  return kind;
}

const QuantityKind& time_kind()
{
  static const QuantityKind kind = [] {
    QuantityKind k{"time", "s", "append 's' (seconds)", {}};
    k.units = {{"w", 7 * 24 * 3600.0}, {"d", 24 * 3600.0}, {"h", 3600.0}, {"m", 60.0},  {"s", 1.0},
               {"ms", 1e-3},           {"us", 1e-6},       {"ns", 1e-9},  {"ps", 1e-12}};
    return k;
  }();
  return kind;
}

const QuantityKind& size_kind()
{
  static const QuantityKind kind = [] {
    QuantityKind k{"size", "B", "append 'B' (bytes) or 'b' (bits)", {}};
    for (bool binary : {false, true}) {
      add_prefixed(k.units, "B", 1.0, binary, false);
      add_prefixed(k.units, "b", 0.125, binary, false);
    }
    return k;
  }();
  return kind;
}

std::string lower(std::string_view text)
{
  std::string result(text);
  for (char& c : result)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return result;
}

// A hint for the common mistakes: upper-case kilo ("KBps"), wrong case ("GF"), "Gflops".
std::string suggestion(const QuantityKind& kind, const std::string& unit)
{
  if (!unit.empty() && unit[0] == 'K') {
    std::string fixed = "k" + unit.substr(1);
    if (kind.units.count(fixed))
      return " (the decimal kilo prefix is a lower-case k: write '" + fixed + "')";
  }
  std::string candidates;
  for (const auto& [known, _] : kind.units) {
    if (lower(known) == lower(unit))
      candidates += (candidates.empty() ? "'" : " or '") + known + "'";
  }
  if (!candidates.empty())
    return " (units are case-sensitive: did you mean " + candidates + "?)";
  if (unit.size() == 6 && unit.compare(1, 5, "flops") == 0 && kind.units.count(unit.substr(0, 1) + "f"))
    return " (write '" + unit.substr(0, 1) + "f' or the long prefix, e.g. 'gigaflops')";
  return "";
}

double parse_quantity(std::string_view text, const QuantityKind& kind, const WarningHandler& warn)
{
  const std::string copy(text); // strtod needs a terminated string
  const std::string quoted = "'" + copy + "'";
  if (copy.empty())
    throw InputError("", 0, std::string("empty ") + kind.name + " value");
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str())
    throw InputError("", 0, std::string("cannot read a number in ") + kind.name + " " + quoted);
  if (errno == ERANGE)
    throw InputError("", 0, std::string(kind.name) + " " + quoted + " is out of range");
  if (!std::isfinite(value))
    throw InputError("", 0, std::string(kind.name) + " " + quoted + " is not a finite number");
  if (value < 0)
    throw InputError("", 0, std::string(kind.name) + " " + quoted + " is negative");

  std::string unit(end);
  if (unit.empty()) {
    if (value != 0 && warn)
      warn(std::string("unit-less ") + kind.name + " " + quoted + " is deprecated: " + kind.advice);
    unit = kind.base_unit;
  }
  auto found = kind.units.find(unit);
  if (found == kind.units.end())
    throw InputError("", 0, "unknown unit '" + unit + "' in " + kind.name + " " + quoted + suggestion(kind, unit));
  const double scaled = value * found->second;
  if (!std::isfinite(scaled)) // "1e308GBps": finite number, infinite quantity
    throw InputError("", 0, std::string(kind.name) + " " + quoted + " is out of range");
  return scaled;
}

} // namespace

double parse_speed(std::string_view text, const WarningHandler& warn)
{
  return parse_quantity(text, speed_kind(), warn);
}

double parse_bandwidth(std::string_view text, const WarningHandler& warn)
{
  return parse_quantity(text, bandwidth_kind(), warn);
}

double parse_time(std::string_view text, const WarningHandler& warn)
{
  return parse_quantity(text, time_kind(), warn);
}

double parse_size(std::string_view text, const WarningHandler& warn)
{
  return parse_quantity(text, size_kind(), warn);
}

std::vector<double> parse_speed_list(std::string_view text, const WarningHandler& warn)
{
  std::vector<double> speeds;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view item =
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
      item.remove_prefix(1);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
      item.remove_suffix(1);
    speeds.push_back(parse_speed(item, warn));
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  return speeds;
}

} // namespace mpisim::units
