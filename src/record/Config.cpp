#include "record/Config.hpp"

#include "common/Errors.hpp"
#include "common/Units.hpp"

#include <cstdlib>
#include <string_view>

namespace mpisim::record {

namespace {

const char* variable(const char* name)
{
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

template <typename Parse> double parse_quantity(const char* name, const char* text, Parse parse, const char* example)
{
  double value = 0;
  try {
    value = parse(text);
  } catch (const InputError& error) {
    throw InputError(std::string(name) + "='" + text + "': " + error.message() + " (example: " + example + ")");
  }
  if (not(value >= 0))
    throw InputError(std::string(name) + "='" + text + "': must not be negative");
  return value;
}

} // namespace

Config Config::from_environment()
{
  Config config;
  if (const char* dir = variable("MPISIM_TRACE_DIR"))
    config.directory = dir;
  if (const char* counter = variable("MPISIM_TRACE_COUNTER")) {
    std::string_view text = counter;
    if (text == "time")
      config.counter = Counter::CpuTime;
    else if (text == "instructions")
      config.counter = Counter::Instructions;
    else
      throw InputError(std::string("MPISIM_TRACE_COUNTER='") + counter + "': expected 'time' or 'instructions'");
  }
  if (const char* speed = variable("MPISIM_TRACE_SPEED")) {
    config.speed = parse_quantity(
        "MPISIM_TRACE_SPEED", speed, [](const char* t) { return units::parse_speed(t); }, "2.5Gf");
    if (config.speed == 0)
      throw InputError(std::string("MPISIM_TRACE_SPEED='") + speed + "': must be positive");
  }
  if (const char* minimum = variable("MPISIM_TRACE_MIN_COMPUTE"))
    config.min_compute = parse_quantity(
        "MPISIM_TRACE_MIN_COMPUTE", minimum, [](const char* t) { return units::parse_time(t); }, "1us");
  if (const char* mode = variable("MPISIM_TRACE_SUBCOMM")) {
    std::string_view text = mode;
    if (text == "world")
      config.subcomm = SubcommMode::World;
    else if (text == "p2p")
      config.subcomm = SubcommMode::PointToPoint;
    else
      throw InputError(std::string("MPISIM_TRACE_SUBCOMM='") + mode + "': expected 'world' or 'p2p'");
  }
  if (const char* quiet = variable("MPISIM_TRACE_QUIET"))
    config.quiet = std::string_view(quiet) != "0";
  return config;
}

const char* counter_name(Counter counter)
{
  return counter == Counter::Instructions ? "instructions" : "time";
}

const char* subcomm_mode_name(SubcommMode mode)
{
  return mode == SubcommMode::PointToPoint ? "p2p" : "world";
}

} // namespace mpisim::record
