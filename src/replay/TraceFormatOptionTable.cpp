#include "replay/TraceFormatOptionTable.hpp"

#include "common/Errors.hpp"

#include <cmath>

namespace mpisim::replay {

namespace {

options::OptionTable<TraceFormatOptions> make_table()
{
  using options::OptionValue;
  using options::ValueType;
  using Target = TraceFormatOptions;
  options::OptionTable<Target> table;
  // No default in the table: replay's is each rank's host speed (the recorded gaps last as long in the simulation),
  // convert's is 1Gf (a TI trace has no platform to take a speed from).
  table.push_back({{.name = "--otf2-host-speed",
                    .type = ValueType::Speed,
                    .metavar = "SPEED",
                    .help = "OTF2 traces: flop/s of the recorded machine; the time between MPI calls becomes SPEED x "
                            "seconds flops (default: replay, each rank's host speed; convert, 1Gf; docs/otf2.md)",
                    .front_ends = options::Replay,
                    .keyword = "otf2_host_speed"},
                   [](Target& o, const OptionValue& v) {
                     const double speed = std::get<double>(v);
                     if (not(speed > 0) || not std::isfinite(speed))
                       throw InputError("--otf2-host-speed: the host speed must be a positive number of flop/s");
                     o.host_speed = speed;
                   }});
  return table;
}

} // namespace

const options::OptionTable<TraceFormatOptions>& trace_format_option_table()
{
  static const options::OptionTable<TraceFormatOptions> table = make_table();
  return table;
}

} // namespace mpisim::replay
