// Parsing of one action line into a TraceAction: the table of actions (names, argument counts, usage), typed and
// checked reading of each argument, the per-rank default datatype, then the sizing of counts into bytes
// (ActionSizes.hpp). Errors are InputError "file:line: action: what is wrong, quoting the value".
#pragma once

#include "replay/TraceAction.hpp"
#include "replay/TraceLine.hpp"

#include <span>
#include <string_view>

namespace mpisim::replay {

// Parses the split line `tokens` (tokens[0], the rank field, already checked by the caller: `rank`) of a trace of
// `world_size` ranks into `out`, recycling out's details block. `default_datatype` is the rank's current default,
// updated by an `init` line.
void parse_action(std::span<const std::string_view> tokens, int rank, int world_size, int8_t& default_datatype,
                  const LineSite& site, TraceAction& out);

} // namespace mpisim::replay
