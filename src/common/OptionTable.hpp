// Command-line options declared as data: name, value type, default, help, SimGrid --cfg names, and which front ends
// take them. Each option is declared once, next to what it configures (mpi/RunOptions.cpp: the simulation;
// timeline/TimelineOptionTable.cpp: timelines; online/options/RunnerOptions.cpp: what only `mpisim run` has). The
// native runner parses its argv with the tables; the Python module exposes them (`_core.run_options()`), so `mpisim
// replay` builds its argparse options, and `mpisim.run` checks its keywords, from the same declarations.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace mpisim::options {

enum class ValueType {
  Flag,           // no value: given means true
  Integer,        // "16"
  Text,           // a path, a name, a platform spec
  Choice,         // one of `choices`
  Time,           // "1us": seconds (SimGrid's unit grammar, common/Units.hpp)
  Speed,          // "2Gf": flop/s
  Size,           // "8MiB": bytes
  Assignment,     // "NAME=VALUE", repeatable: every occurrence adds one
  AssignmentList, // "OP=ALGO[,OP=ALGO]", repeatable: every occurrence adds its items
};

// Which front ends take an option (bit set).
enum FrontEnd : unsigned { Replay = 1u, Run = 2u, BothFrontEnds = Replay | Run };

struct OptionInfo {
  std::string name = {};                   // "--platform"
  std::vector<std::string> spellings = {}; // other spellings the native runner takes ("-platform", as smpirun)
  ValueType type = ValueType::Text;
  std::string metavar = {};              // the value in help texts: "P", "NAME=VALUE"
  std::string default_value = {};        // as it would be written on the command line; empty: none
  std::string help = {};                 // one sentence, without the default and the SimGrid names (added by describe)
  std::vector<std::string> simgrid = {}; // SimGrid --cfg names of the same setting ("smpi/host-speed")
  unsigned front_ends = BothFrontEnds;
  std::string keyword = {};              // keyword of mpisim.replay / mpisim.run; empty: command line only
  std::vector<std::string> choices = {}; // ValueType::Choice
  bool required = false;
  // Integer and quantity options: the smallest and largest values taken, written as on the command line ("1",
  // "64KiB"); empty: no bound but the type's (quantities are >= 0 and finite).
  std::string minimum = {};
  std::string maximum = {};
};

using Assignments = std::vector<std::pair<std::string, std::string>>;
using OptionValue = std::variant<bool, long long, double, std::string, Assignments>;

const char* type_name(ValueType type); // "flag", "integer", ..., as exposed to Python

// The value written after the option, typed and within its bounds. Bad values throw InputError naming `shown_as` (the
// option's name on the command line, its keyword in the Python API) and the text.
OptionValue parse_value(const OptionInfo& option, std::string_view text, std::string_view shown_as);
inline OptionValue parse_value(const OptionInfo& option, std::string_view text)
{
  return parse_value(option, text, option.name);
}

// Throws InputError when a typed value (from text, or given as a number by the Python API) is outside the option's
// minimum and maximum.
void check_bounds(const OptionInfo& option, const OptionValue& value, std::string_view shown_as);

// The help text with its default and SimGrid names: "network model (default: smpi)".
std::string describe(const OptionInfo& option);
// "  --model M             network model (default: smpi)": one line of a --help listing.
std::string help_line(const OptionInfo& option);
// What every front end says about an option it does not know: one line, without the command's prefix.
std::string unknown_option_message(std::string_view command, std::string_view option);

// An option of a table that writes into `Target`.
template <class Target> struct Option {
  OptionInfo info;
  std::function<void(Target&, const OptionValue&)> apply;
};

template <class Target> using OptionTable = std::vector<Option<Target>>;

// The options of `inner`, writing into the `member` of a larger target (the runner's options hold the simulation's).
template <class Outer, class Inner> OptionTable<Outer> nested(const OptionTable<Inner>& inner, Inner Outer::*member)
{
  OptionTable<Outer> out;
  for (const Option<Inner>& option : inner)
    out.push_back({option.info, [apply = option.apply, member](Outer& target, const OptionValue& value) {
                     apply(target.*member, value);
                   }});
  return out;
}

template <class Target> const Option<Target>* find_option(const OptionTable<Target>& table, std::string_view argument)
{
  for (const Option<Target>& option : table) {
    if (option.info.name == argument)
      return &option;
    for (const std::string& spelling : option.info.spellings)
      if (spelling == argument)
        return &option;
  }
  return nullptr;
}

} // namespace mpisim::options
