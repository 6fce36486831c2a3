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

// The fast path of the lines that make most of a trace, read in one pass with no token list: `<rank> <action> <args>`
// where every argument is plain decimal digits (no sign, no exponent, no more digits than the strict parses read
// without from_chars) and the action is a point-to-point one (send, isend, recv, irecv, wait, test), compute, sleep,
// waitall or finalize. `rest` is the line after its rank field and blanks (PlainRankField), followed by '\n' and 7 more
// readable bytes of any value (ChunkedLineReader's lines). For such a line, true with `out` filled as parse_action
// fills it (details released); for any other line, valid or not, false: split_buffered_line, parse_rank_field and
// parse_action then read it, fill `out` anew and name its errors (`out` may have been overwritten meanwhile).
bool parse_plain_action(std::string_view rest, int rank, int world_size, int8_t default_datatype, uint32_t line_number,
                        TraceAction& out);

} // namespace mpisim::replay
