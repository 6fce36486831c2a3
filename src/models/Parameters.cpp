#include "models/Parameters.hpp"

#include "common/Errors.hpp"
#include "common/InputFiles.hpp"
#include "common/Units.hpp"
#include "models/PiecewiseTable.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>

namespace mpisim::models {

const char* unit_of(ParameterKind kind)
{
  switch (kind) {
  case ParameterKind::Time: return "s";
  case ParameterKind::Bandwidth: return "B/s";
  case ParameterKind::Size: return "B";
  case ParameterKind::Bool: return "yes|no";
  case ParameterKind::Table: return "table";
  case ParameterKind::Number: break;
  }
  return "";
}

const char* range_of(ValueRange range)
{
  return range == ValueRange::Positive ? "> 0" : ">= 0";
}

namespace {

std::string format_number(double value)
{
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

bool in_range(double value, ValueRange range)
{
  return range == ValueRange::Positive ? value > 0 : value >= 0;
}

// Finite and in the parameter's range; for a table, every value of it (parse() checked its thresholds).
void check_range(const ParameterSpec& spec, const std::string& value, double number)
{
  if (spec.kind == ParameterKind::Bool)
    return;
  if (spec.kind == ParameterKind::Table) {
    const double lowest = PiecewiseTable::parse(value).lowest_value();
    if (std::isfinite(lowest) && not in_range(lowest, spec.range))
      throw InputError("value " + format_number(lowest) + " in the table '" + value +
                       "' is out of range: " + spec.name + " values must be " + range_of(spec.range));
    return;
  }
  if (not std::isfinite(number))
    throw InputError("'" + value + "' is not a finite number");
  if (not in_range(number, spec.range))
    throw InputError("'" + value + "' is out of range: " + spec.name + " must be " + range_of(spec.range));
}

} // namespace

Parameters::Parameters(const std::vector<ParameterSpec>& specs) : specs_(specs)
{
  for (const ParameterSpec& spec : specs_) {
    Entry entry{&spec, "", 0};
    parse_into(entry, spec.default_value, "default of " + spec.name);
    entries_.emplace(spec.name, entry);
    for (const std::string& alias : spec.aliases)
      aliases_.emplace(alias, spec.name);
  }
}

void Parameters::parse_into(Entry& target, const std::string& value, const std::string& origin)
{
  Entry entry = target; // parsed on a copy: a rejected value leaves the previous one whole
  try {
    switch (entry.spec->kind) {
    case ParameterKind::Number: {
      size_t used = 0;
      entry.number = std::stod(value, &used);
      if (used != value.size())
        throw InputError("'" + value + "' is not a number");
      break;
    }
    case ParameterKind::Time: entry.number = units::parse_time(value); break;
    case ParameterKind::Bandwidth: entry.number = units::parse_bandwidth(value); break;
    case ParameterKind::Size: entry.number = units::parse_size(value); break;
    case ParameterKind::Bool:
      if (value == "yes" || value == "1" || value == "true" || value == "on")
        entry.number = 1;
      else if (value == "no" || value == "0" || value == "false" || value == "off")
        entry.number = 0;
      else
        throw InputError("'" + value + "' is not yes or no");
      break;
    case ParameterKind::Table: break; // checked with its range below
    }
    check_range(*entry.spec, value, entry.number);
  } catch (const std::invalid_argument&) {
    throw InputError(origin + ": parameter " + entry.spec->name + ": '" + value + "' is not a number");
  } catch (const std::out_of_range&) {
    throw InputError(origin + ": parameter " + entry.spec->name + ": '" + value + "' is out of range");
  } catch (const InputError& error) {
    throw InputError(origin + ": parameter " + entry.spec->name + ": " + error.message());
  }
  entry.text = value;
  target = entry;
}

Parameters::Entry& Parameters::find(const std::string& name, const std::string& origin)
{
  auto it = entries_.find(name);
  if (it == entries_.end()) {
    auto alias = aliases_.find(name);
    if (alias != aliases_.end())
      it = entries_.find(alias->second);
  }
  if (it == entries_.end()) {
    std::string known;
    for (const auto& [known_name, entry] : entries_)
      known += (known.empty() ? "" : ", ") + known_name;
    throw InputError(origin + ": unknown model parameter '" + name + "' (this model has: " + known + ")");
  }
  return it->second;
}

bool Parameters::set(const std::string& name, const std::string& value, const std::string& origin, bool ignore_unknown)
{
  if (ignore_unknown && not entries_.count(name) && not aliases_.count(name))
    return false;
  parse_into(find(name, origin), value, origin);
  return true;
}

void Parameters::load_file(const std::string& path)
{
  require_regular_file(path, "parameter file");
  std::ifstream in(path);
  if (not in)
    throw InputError(path, 0, "cannot open the parameter file");
  std::string line;
  long number = 0;
  auto trim = [](const std::string& text) {
    size_t begin = text.find_first_not_of(" \t\r");
    size_t end = text.find_last_not_of(" \t\r");
    return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
  };
  while (std::getline(in, line)) {
    ++number;
    line = trim(line.substr(0, line.find('#')));
    if (line.empty())
      continue;
    size_t equal = line.find('=');
    if (equal == std::string::npos)
      throw InputError(path, number, "expected 'name = value', got '" + line + "'");
    set(trim(line.substr(0, equal)), trim(line.substr(equal + 1)), path + ":" + std::to_string(number));
  }
}

const Parameters::Entry& Parameters::get(const std::string& name) const
{
  auto it = entries_.find(name);
  if (it == entries_.end())
    throw std::logic_error("model parameter '" + name + "' was never declared");
  return it->second;
}

double Parameters::number(const std::string& name) const
{
  return get(name).number;
}
bool Parameters::flag(const std::string& name) const
{
  return get(name).number != 0;
}
const std::string& Parameters::text(const std::string& name) const
{
  return get(name).text;
}

std::map<std::string, std::string> Parameters::as_text() const
{
  std::map<std::string, std::string> out;
  for (const auto& [name, entry] : entries_)
    out[name] = entry.text;
  return out;
}

} // namespace mpisim::models
