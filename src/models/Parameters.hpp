// Model parameters, declared once: name, kind (which fixes the unit), default, description, and the SimGrid
// configuration names that mean the same thing (so a platform file's <config> block applies unchanged).
//
// Values are checked when they are set (at the boundary: command line, parameter file, platform <config>), so model
// code only ever reads numbers.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mpisim::models {

enum class ParameterKind { Number, Time, Bandwidth, Size, Bool, Table };

// The values a parameter takes, besides being finite: for a table, its values (its thresholds are message sizes,
// >= 0). Latencies, overheads, sizes and weights are >= 0; a factor that divides (bandwidth) is > 0, since a zero
// rate would never deliver the message and a negative one is meaningless.
enum class ValueRange { NonNegative, Positive };

struct ParameterSpec {
  std::string name;
  ParameterKind kind;
  std::string default_value;
  std::string description;
  std::vector<std::string> aliases = {}; // SimGrid --cfg names
  ValueRange range = ValueRange::NonNegative;
};

const char* unit_of(ParameterKind kind);
const char* range_of(ValueRange range); // ">= 0", "> 0"

class Parameters {
public:
  explicit Parameters(const std::vector<ParameterSpec>& specs);

  // Sets a value given as text; `origin` ("file:line" or "--param") names where it came from in error messages.
  // Unknown names and malformed values throw InputError. Returns false (and ignores the value) for names that are
  // neither ours nor aliases when `ignore_unknown` is set (platform <config> blocks hold other simulators' options).
  bool set(const std::string& name, const std::string& value, const std::string& origin, bool ignore_unknown = false);
  // Reads a parameter file: one `name = value` per line, '#' comments.
  void load_file(const std::string& path);

  double number(const std::string& name) const; // Number, Time (s), Bandwidth (B/s), Size (bytes)
  bool flag(const std::string& name) const;     // Bool
  const std::string& text(const std::string& name) const;

  // name -> value as text, for provenance in result files.
  std::map<std::string, std::string> as_text() const;

private:
  struct Entry {
    const ParameterSpec* spec;
    std::string text;
    double number = 0;
  };
  Entry& find(const std::string& name, const std::string& origin);
  const Entry& get(const std::string& name) const;
  static void parse_into(Entry& entry, const std::string& value, const std::string& origin);

  std::vector<ParameterSpec> specs_;
  std::map<std::string, Entry> entries_;
  std::map<std::string, std::string> aliases_;
};

} // namespace mpisim::models
