#include "replay/CheckpointOptionTable.hpp"

#include "common/Errors.hpp"

#include <cmath>
#include <string>

namespace mpisim::replay {

namespace {

// A duration that must be finite and not negative (positive when `positive`).
double checked_time(const options::OptionValue& value, const std::string& option, bool positive)
{
  const double seconds = std::get<double>(value);
  if (not std::isfinite(seconds) || seconds < 0 || (positive && seconds == 0))
    throw InputError(option + ": expected a " + (positive ? "positive" : "non-negative") + " time");
  return seconds;
}

options::OptionTable<CheckpointOptions> make_table()
{
  using options::OptionValue;
  using options::ValueType;
  using Target = CheckpointOptions;
  options::OptionTable<Target> table;
  table.push_back(
      {{.name = "--checkpoint-interval",
        .type = ValueType::Time,
        .metavar = "T",
        .help = "coordinated checkpoints: every rank checkpoints at the first consistent cut (the end of "
                "a synchronizing collective over every rank, no message in flight) at least T after the "
                "last checkpoint (docs/failures.md, checkpoint/restart in replay)",
        .front_ends = options::Replay,
        .keyword = "checkpoint_interval"},
       [](Target& o, const OptionValue& v) { o.interval = checked_time(v, "--checkpoint-interval", true); }});
  table.push_back({{.name = "--checkpoint-cost",
                    .type = ValueType::Time,
                    .metavar = "C",
                    .default_value = "0s",
                    .help = "simulated time each rank spends writing a checkpoint",
                    .front_ends = options::Replay,
                    .keyword = "checkpoint_cost"},
                   [](Target& o, const OptionValue& v) { o.cost = checked_time(v, "--checkpoint-cost", false); }});
  return table;
}

} // namespace

const options::OptionTable<CheckpointOptions>& checkpoint_option_table()
{
  static const options::OptionTable<CheckpointOptions> table = make_table();
  return table;
}

} // namespace mpisim::replay
